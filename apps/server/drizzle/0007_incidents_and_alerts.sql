CREATE TABLE "alert_defaults" (
	"id" smallint PRIMARY KEY NOT NULL,
	"kinds" jsonb NOT NULL,
	"channels" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"log_entry_id" integer NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp (3) with time zone,
	"claimed_until" timestamp (3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"kinds" jsonb NOT NULL,
	"channels" jsonb NOT NULL,
	"muted_machine_ids" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_keys" (
	"id" smallint PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"machine_id" text NOT NULL,
	"kind" text NOT NULL,
	"began_at" timestamp (3) with time zone NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"recovering_since" timestamp (3) with time zone,
	"relapses" integer DEFAULT 0 NOT NULL,
	"ended_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "machine_watch" (
	"machine_id" text PRIMARY KEY NOT NULL,
	"status" text,
	"low_pressure_since" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "sprinklers" ADD COLUMN "low_pressure_bar" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_log_entry_id_log_entries_id_fk" FOREIGN KEY ("log_entry_id") REFERENCES "public"."log_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_deliveries_waiting_idx" ON "alert_deliveries" USING btree ("channel","created_at") WHERE delivered_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "incidents_open_key" ON "incidents" USING btree ("machine_id","kind") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "incidents_machine_began_idx" ON "incidents" USING btree ("machine_id","began_at");--> statement-breakpoint
CREATE INDEX "machine_commands_machine_sent_idx" ON "machine_commands" USING btree ("machine_id","sent_at");