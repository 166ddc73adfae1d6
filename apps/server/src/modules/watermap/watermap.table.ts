import { bigint, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Water applied per machine, grid cell and year: `days[d]` is the running sum, the mm from
 * 1 January to the end of day d of the year (local calendar, 1 January is day 1). The array
 * ends on or after the last day the cell got water: later days hold what its last element does. Any range of
 * days then reads one row per cell, two elements of it (two rows when the range crosses New
 * Year): `days[last] - days[first - 1]`. A round of the accounting counts one day, so adding
 * its water rewrites the array from that day on, in the usual case its last element or two.
 * The migration keeps the rows uncompressed in the table (a season is ~2 KB a row) so that
 * reading two elements does not decompress the whole array.
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
    days: doublePrecision('days').array().notNull(),
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
