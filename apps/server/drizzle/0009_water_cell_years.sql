-- The water grid held a row per cell and month; it now holds a row per cell and year, running
-- sums by day of year up to the cell's last day with water, so a watermap of any range reads
-- one row per cell instead of one per cell and month. Rows stay in the table uncompressed up to
-- 8 KB (a whole year is 2.9 KB): the watermap reads two elements of each, and a compressed array
-- would be decompressed whole for each row.
CREATE TABLE "water_cell_years" (
	"machine_id" text NOT NULL,
	"year" integer NOT NULL,
	"x" integer NOT NULL,
	"y" integer NOT NULL,
	"days" double precision[] NOT NULL,
	CONSTRAINT "water_cell_years_machine_id_year_x_y_pk" PRIMARY KEY("machine_id","year","x","y")
) WITH (toast_tuple_target = 8160);
--> statement-breakpoint
-- Each month row's running sums become the water of each day of the year; a cell's year row
-- runs from 1 January to the last day of its last month, and adds those up again.
INSERT INTO "water_cell_years" ("machine_id", "year", "x", "y", "days")
WITH "amounts" AS (
	SELECT "machine_id", extract(year FROM "month")::integer AS "year", "x", "y",
		("month" - date_trunc('year', "month")::date) + "day"::integer AS "day_of_year",
		"running" - coalesce("days"["day" - 1], 0) AS "mm"
	FROM "water_cells", unnest("days") WITH ORDINALITY AS "sums" ("running", "day")
	WHERE "day" <= extract(day FROM "month" + interval '1 month' - interval '1 day')
), "cells" AS (
	SELECT "machine_id", "year", "x", "y", max("day_of_year") AS "last_day" FROM "amounts" GROUP BY 1, 2, 3, 4
)
SELECT "machine_id", "year", "x", "y", array_agg("running" ORDER BY "day_of_year")
FROM (
	SELECT "cells"."machine_id", "cells"."year", "cells"."x", "cells"."y", "all_days"."day_of_year",
		sum(coalesce("amounts"."mm", 0)) OVER (
			PARTITION BY "cells"."machine_id", "cells"."year", "cells"."x", "cells"."y" ORDER BY "all_days"."day_of_year"
		) AS "running"
	FROM "cells"
	CROSS JOIN generate_series(1, "cells"."last_day") AS "all_days" ("day_of_year")
	LEFT JOIN "amounts" ON "amounts"."machine_id" = "cells"."machine_id" AND "amounts"."year" = "cells"."year"
		AND "amounts"."x" = "cells"."x" AND "amounts"."y" = "cells"."y" AND "amounts"."day_of_year" = "all_days"."day_of_year"
) AS "running_sums"
GROUP BY "machine_id", "year", "x", "y";
--> statement-breakpoint
DROP TABLE "water_cells";
