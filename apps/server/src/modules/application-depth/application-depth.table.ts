import { doublePrecision, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';

/** A machine's depth at 100 %, mm, as an administrator typed it in (docs/advice.md); without a row it is learned from the reports. */
export const applicationDepths = pgTable('application_depths', {
  sprinklerId: integer('sprinkler_id')
    .primaryKey()
    .references(() => sprinklers.id, { onDelete: 'cascade' }),
  depthAtFullSpeed: doublePrecision('depth_at_full_speed').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
