-- Custom migration: drizzle-kit cannot express a table's storage parameters. As machine_state
-- (0023): every batch of soil readings updates the row of each probe in it, a row a reading.
-- With full pages the new version rarely fits beside the old one, so an update leaves a dead row
-- and a new index entry elsewhere (about 20 MB an hour at 1,000 machines with their probes where
-- nothing vacuumed). Only `sensor_id` is indexed and it never changes: with half of each page
-- free the updates are HOT, and the next visit of a page prunes its dead versions.
ALTER TABLE "soil_sensors" SET (fillfactor = 50);
