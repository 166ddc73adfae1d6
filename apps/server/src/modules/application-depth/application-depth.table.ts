import { doublePrecision, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';

/**
 * A machine's pace at 100 % as an administrator typed it in (docs/advice.md): its depth, mm, and
 * the hours a circle takes; each null, or without a row, is learned from the reports.
 */
export const applicationDepths = pgTable('application_depths', {
  sprinklerId: integer('sprinkler_id')
    .primaryKey()
    .references(() => sprinklers.id, { onDelete: 'cascade' }),
  depthAtFullSpeed: doublePrecision('depth_at_full_speed'),
  hoursPerCircle: doublePrecision('hours_per_circle'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
