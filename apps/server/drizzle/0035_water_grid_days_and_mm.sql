-- The water grid held, per cell and year, a running sum for every day up to the cell's last day
-- with water, as doubles (a season 2 KB and more a row, rewritten whole by each round of the
-- accounting); it now holds the days that got water and each one's mm as a 4-byte float. The
-- rows are copied into a new table, not updated in place, so the old versions leave no dead rows.
ALTER TABLE "water_cell_years" RENAME TO "water_cell_years_running";--> statement-breakpoint
ALTER TABLE "water_cell_years_running" RENAME CONSTRAINT "water_cell_years_machine_id_year_x_y_pk" TO "water_cell_years_running_pk";--> statement-breakpoint
DROP INDEX "water_cell_years_revision_idx";--> statement-breakpoint
CREATE TABLE "water_cell_years" (
	"machine_id" text NOT NULL,
	"year" integer NOT NULL,
	"x" integer NOT NULL,
	"y" integer NOT NULL,
	"days" smallint[] NOT NULL,
	"mm" real[] NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "water_cell_years_machine_id_year_x_y_pk" PRIMARY KEY("machine_id","year","x","y")
) WITH (toast_tuple_target = 8160);
--> statement-breakpoint
-- A day got water where the running sum grew; a row's last day stays, as the array's end did,
-- whatever it got (the readers take it for the cell's last day with water).
INSERT INTO "water_cell_years" ("machine_id", "year", "x", "y", "days", "mm", "revision")
SELECT "machine_id", "year", "x", "y",
	array(
		SELECT "day"::smallint FROM unnest("days") WITH ORDINALITY AS "sums" ("running", "day")
		WHERE "running" <> coalesce("days"["day" - 1], 0) OR "day" = cardinality("days")
		ORDER BY "day"
	),
	array(
		SELECT ("running" - coalesce("days"["day" - 1], 0))::real FROM unnest("days") WITH ORDINALITY AS "sums" ("running", "day")
		WHERE "running" <> coalesce("days"["day" - 1], 0) OR "day" = cardinality("days")
		ORDER BY "day"
	),
	"revision"
FROM "water_cell_years_running";
--> statement-breakpoint
DROP TABLE "water_cell_years_running";--> statement-breakpoint
CREATE INDEX "water_cell_years_revision_idx" ON "water_cell_years" USING btree ("machine_id","revision");
