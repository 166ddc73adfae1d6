-- Custom migration: drizzle-kit cannot express a table's storage parameters. Every telemetry
-- batch updates the row of each machine in it, about once per report. With its pages full (the
-- default fillfactor of 100) a new row version rarely fits on the page of the old one, so most
-- updates were not HOT: each left a dead version of the whole row (its program's sectors
-- included, about 1.4 kB) elsewhere and a new index entry, and the table grew by about 500 MB an
-- hour at 1,000 machines where nothing vacuumed it. Only `machine_id` is indexed and it never
-- changes, so with half of each page kept free the new version goes on the same page (a HOT
-- update), and the next visit of the page prunes the dead versions without a vacuum. Existing
-- pages take the setting as their rows are next written elsewhere; the table is small.
ALTER TABLE "machine_state" SET (fillfactor = 50);
