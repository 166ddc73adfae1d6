-- Custom migration: drizzle-kit cannot express a table's storage parameters. As machine_state
-- (0023) and soil_sensors (0024): the water accounting moves each machine's progress every round
-- (every 15 s for a machine that reports), a new row version each time. With full pages it rarely
-- fits beside the old one, so the update leaves a dead row and a new index entry elsewhere. Only
-- `machine_id` is indexed and it never changes: with half of each page free the updates are HOT.
ALTER TABLE "water_progress" SET (fillfactor = 50);
