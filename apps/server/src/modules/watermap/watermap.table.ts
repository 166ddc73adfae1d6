import { date, doublePrecision, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Water applied per machine, grid cell and month: `days[d]` is the running sum, the mm from
 * the 1st of the month to the end of day d (local calendar), and `total` the month's mm. A
 * season's watermap then reads a few rows per cell, each in constant time: the totals of whole
 * months, and `days[last] - days[first - 1]` in the first and last month. Running sums still
 * add up element by element when more water is counted.
 */
export const waterCells = pgTable(
  'water_cells',
  {
    machineId: text('machine_id').notNull(),
    /** The first day of the month */
    month: date('month', { mode: 'string' }).notNull(),
    /** Cells east of the machine's centre, in grid steps */
    x: integer('x').notNull(),
    /** Cells north of the machine's centre, in grid steps */
    y: integer('y').notNull(),
    days: doublePrecision('days').array().notNull(),
    total: doublePrecision('total').notNull(),
  },
  (table) => [primaryKey({ columns: [table.machineId, table.month, table.x, table.y] })],
);

/** How far each machine's telemetry has been turned into water on the grid. */
export const waterProgress = pgTable('water_progress', {
  machineId: text('machine_id').primaryKey(),
  processedUntil: timestamp('processed_until', { withTimezone: true, precision: 3 }).notNull(),
});
