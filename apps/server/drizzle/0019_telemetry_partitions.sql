-- Custom migration: drizzle-kit cannot express partitioning. The `telemetry` row table becomes
-- partitioned by range of `ts` (native declarative partitioning; PGlite too), every row kept.
-- All existing rows go to the DEFAULT partition; the server creates the day partitions itself
-- (telemetry-partitions.ts: today and the days ahead, in TIME_ZONE), moving a day's rows out of
-- the DEFAULT partition when one is created for a day it already holds. The primary key
-- includes the partition key (ts), as PostgreSQL requires; names stay those of the schema.
ALTER TABLE "telemetry" RENAME TO "telemetry_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry_unpartitioned" RENAME CONSTRAINT "telemetry_machine_id_ts_pk" TO "telemetry_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "telemetry_ts_idx" RENAME TO "telemetry_unpartitioned_ts_idx";--> statement-breakpoint
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
) PARTITION BY RANGE ("ts");--> statement-breakpoint
CREATE INDEX "telemetry_ts_idx" ON "telemetry" USING btree ("ts");--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT;--> statement-breakpoint
INSERT INTO "telemetry" ("machine_id", "ts", "status", "angle", "distance", "speed", "pressure", "flow")
	SELECT "machine_id", "ts", "status", "angle", "distance", "speed", "pressure", "flow" FROM "telemetry_unpartitioned";--> statement-breakpoint
DROP TABLE "telemetry_unpartitioned";
