-- water_cells.days held the mm of each day of the month; it now holds running sums (mm from
-- the 1st to the end of each day), so a watermap reads any range of days in constant time.
UPDATE "water_cells" SET "days" = (
	SELECT array_agg("running" ORDER BY "day")
	FROM (
		SELECT "day", sum("amount") OVER (ORDER BY "day") AS "running"
		FROM unnest("water_cells"."days") WITH ORDINALITY AS "amounts" ("amount", "day")
	) AS "sums"
);
