CREATE TABLE "machine_commands" (
	"id" uuid PRIMARY KEY NOT NULL,
	"machine_id" text NOT NULL,
	"type" text NOT NULL,
	"sent_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"settled_at" timestamp (3) with time zone,
	"detail" text DEFAULT '' NOT NULL,
	"actor_user_id" integer,
	"sprinkler_id" integer,
	"sprinkler_name" text,
	"event" text NOT NULL,
	"ip" text NOT NULL,
	"failure_event" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "machine_commands_pending_idx" ON "machine_commands" USING btree ("sent_at") WHERE outcome = 'pending';