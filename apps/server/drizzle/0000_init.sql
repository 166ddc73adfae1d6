CREATE TABLE "link_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"persistent" boolean NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "throttle_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "log_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"event_type" text NOT NULL,
	"actor_user_id" integer,
	"subject_user_id" integer,
	"sprinkler_id" integer,
	"sprinkler_name" text,
	"sprinkler_internal_id" text,
	"event" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"sprinkler_id" integer NOT NULL,
	"name" text NOT NULL,
	"program_data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sprinkler_access" (
	"sprinkler_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sprinkler_access_sprinkler_id_user_id_pk" PRIMARY KEY("sprinkler_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sprinklers" (
	"id" serial PRIMARY KEY NOT NULL,
	"internal_id" text NOT NULL,
	"name" text NOT NULL,
	"lat" numeric(9, 6) NOT NULL,
	"lng" numeric(9, 6) NOT NULL,
	"arm_length" double precision DEFAULT 0 NOT NULL,
	"area_map" jsonb DEFAULT '{"type":"FeatureCollection","features":[]}'::jsonb NOT NULL,
	"model" text,
	"firmware" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machine_state" (
	"machine_id" text PRIMARY KEY NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"presence_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	"status" text,
	"angle" double precision,
	"distance" double precision,
	"speed" double precision,
	"pressure" double precision,
	"flow" double precision,
	"alarm" text,
	"position" jsonb,
	"program_name" text,
	"program_data" jsonb,
	"program_uploaded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"machine_id" text NOT NULL,
	"ts" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"angle" double precision NOT NULL,
	"distance" double precision NOT NULL,
	"speed" double precision NOT NULL,
	"pressure" double precision NOT NULL,
	"flow" double precision NOT NULL,
	CONSTRAINT "telemetry_machine_id_ts_pk" PRIMARY KEY("machine_id","ts")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"company" text,
	"email" text NOT NULL,
	"phone" text,
	"admin" boolean DEFAULT false NOT NULL,
	"language" text DEFAULT 'pl' NOT NULL,
	"password_hash" text,
	"activated_at" timestamp with time zone,
	"subscription_expiry_date" date,
	"logs_read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "water_cells" (
	"machine_id" text NOT NULL,
	"month" date NOT NULL,
	"x" integer NOT NULL,
	"y" integer NOT NULL,
	"days" double precision[] NOT NULL,
	"total" double precision NOT NULL,
	CONSTRAINT "water_cells_machine_id_month_x_y_pk" PRIMARY KEY("machine_id","month","x","y")
);
--> statement-breakpoint
CREATE TABLE "water_progress" (
	"machine_id" text PRIMARY KEY NOT NULL,
	"processed_until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "soil_sensors" (
	"sensor_id" text PRIMARY KEY NOT NULL,
	"ts" timestamp (3) with time zone NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"moisture" double precision NOT NULL,
	"depth" double precision
);
--> statement-breakpoint
CREATE TABLE "weather_readings" (
	"station_id" text NOT NULL,
	"ts" timestamp (3) with time zone NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"temperature" double precision NOT NULL,
	"humidity" double precision NOT NULL,
	"rain" double precision NOT NULL,
	"wind" double precision,
	"solar_radiation" double precision,
	"etp_7d" double precision,
	CONSTRAINT "weather_readings_station_id_ts_pk" PRIMARY KEY("station_id","ts")
);
--> statement-breakpoint
ALTER TABLE "link_tokens" ADD CONSTRAINT "link_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_entries" ADD CONSTRAINT "log_entries_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_entries" ADD CONSTRAINT "log_entries_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_entries" ADD CONSTRAINT "log_entries_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sprinkler_access" ADD CONSTRAINT "sprinkler_access_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sprinkler_access" ADD CONSTRAINT "sprinkler_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_tokens_user_idx" ON "link_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "throttle_events_lookup_idx" ON "throttle_events" USING btree ("kind","key","at");--> statement-breakpoint
CREATE INDEX "log_entries_created_idx" ON "log_entries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "log_entries_actor_idx" ON "log_entries" USING btree ("actor_user_id");--> statement-breakpoint
CREATE INDEX "log_entries_subject_idx" ON "log_entries" USING btree ("subject_user_id");--> statement-breakpoint
CREATE INDEX "log_entries_sprinkler_idx" ON "log_entries" USING btree ("sprinkler_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "programs_sprinkler_name_key" ON "programs" USING btree ("sprinkler_id","name");--> statement-breakpoint
CREATE INDEX "sprinkler_access_user_idx" ON "sprinkler_access" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sprinklers_internal_id_key" ON "sprinklers" USING btree ("internal_id");--> statement-breakpoint
CREATE INDEX "telemetry_ts_idx" ON "telemetry" USING btree ("ts");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_admin_idx" ON "users" USING btree ("admin") WHERE "users"."admin";--> statement-breakpoint
CREATE INDEX "weather_readings_ts_idx" ON "weather_readings" USING btree ("ts");