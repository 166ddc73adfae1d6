CREATE TABLE "farm_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"sprinkler_id" integer NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"area" jsonb,
	"mm" double precision,
	"probe" text,
	"moisture" double precision,
	"probe_lat" double precision,
	"probe_lng" double precision,
	"recorded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "farm_records" ADD CONSTRAINT "farm_records_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "farm_records" ADD CONSTRAINT "farm_records_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "farm_records_sprinkler_day_idx" ON "farm_records" USING btree ("sprinkler_id","day");