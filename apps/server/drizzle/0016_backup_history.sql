CREATE TABLE "backup_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"origin" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"size_bytes" bigint NOT NULL,
	"backup_taken_at" timestamp (3) with time zone NOT NULL,
	"backup_version" text NOT NULL,
	"logged" boolean DEFAULT false NOT NULL
);
