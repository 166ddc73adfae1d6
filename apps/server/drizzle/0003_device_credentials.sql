CREATE TABLE "device_credentials" (
	"machine_id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"secret_created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_connected_at" timestamp (3) with time zone,
	"last_address" text,
	"last_refused_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "soil_sensors" ADD COLUMN "machine_id" text;--> statement-breakpoint
ALTER TABLE "weather_readings" ADD COLUMN "machine_id" text;