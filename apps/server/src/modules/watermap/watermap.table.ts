import { bigint, index, integer, pgTable, primaryKey, real, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Water applied per machine, grid cell and year (local calendar): `days` are the days of the
 * year the cell got water (1 January is day 1), ascending, and `mm[i]` the water of day
 * `days[i]`, as 4-byte floats (about 7 significant digits: a millionth of a mm on a day's 10 mm).
 * A season a cell is watered every fourth day is 45 pairs, about 270 bytes, where a running sum
 * for every day of the year as doubles was 2.9 KB, rewritten whole each time water was added. A
 * round of the accounting counts one day: adding its water to a cell appends a day or adds to the
 * last. The migration keeps the rows uncompressed in the table, up to 8 KB.
 */
export const waterCellYears = pgTable(
  'water_cell_years',
  {
    machineId: text('machine_id').notNull(),
    year: integer('year').notNull(),
    /** Cells east of the machine's centre, in grid steps */
    x: integer('x').notNull(),
    /** Cells north of the machine's centre, in grid steps */
    y: integer('y').notNull(),
    days: smallint('days').array().notNull(),
    mm: real('mm').array().notNull(),
    /**
     * The machine's water revision that last changed the row: every write of water gives the rows
     * it touches the machine's highest revision plus one, so a reader that kept what it read can
     * read only the rows changed since (the advice's kept water balance, docs/advice.md).
     */
    revision: bigint('revision', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.machineId, table.year, table.x, table.y] }),
    index('water_cell_years_revision_idx').on(table.machineId, table.revision),
  ],
);

/** How far each machine's telemetry has been turned into water on the grid. */
export const waterProgress = pgTable('water_progress', {
  machineId: text('machine_id').primaryKey(),
  processedUntil: timestamp('processed_until', { withTimezone: true, precision: 3 }).notNull(),
});
