CREATE TABLE "autopilot_settings" (
	"sprinkler_id" integer PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"rules" jsonb NOT NULL,
	"memory" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	CONSTRAINT "autopilot_settings_mode_check" CHECK ("autopilot_settings"."mode" in ('off', 'suggest', 'auto'))
);
--> statement-breakpoint
ALTER TABLE "autopilot_settings" ADD CONSTRAINT "autopilot_settings_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopilot_settings" ADD CONSTRAINT "autopilot_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;