CREATE TABLE "soil_readings" (
	"sensor_id" text NOT NULL,
	"machine_id" text,
	"ts" timestamp (3) with time zone NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"moisture" double precision NOT NULL,
	"depth" double precision,
	CONSTRAINT "soil_readings_sensor_id_ts_pk" PRIMARY KEY("sensor_id","ts")
);
--> statement-breakpoint
CREATE INDEX "soil_readings_ts_idx" ON "soil_readings" USING btree ("ts");--> statement-breakpoint
INSERT INTO "soil_readings" ("sensor_id", "machine_id", "ts", "lat", "lng", "moisture", "depth") SELECT "sensor_id", "machine_id", "ts", "lat", "lng", "moisture", "depth" FROM "soil_sensors" ON CONFLICT DO NOTHING;
