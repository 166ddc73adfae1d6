import { ACCESS_LEVELS } from '@pivot/contracts';
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';
import { users } from '../users/users.table';

/** Which users may see which machines, and whether they may also control them (their level). */
export const sprinklerAccess = pgTable(
  'sprinkler_access',
  {
    sprinklerId: integer('sprinkler_id')
      .notNull()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    /** watch: sees, changes nothing; control: also moves and reprograms. Grants made before levels keep control. */
    level: text('level', { enum: ACCESS_LEVELS }).notNull().default('control'),
  },
  (table) => [
    primaryKey({ columns: [table.sprinklerId, table.userId] }),
    index('sprinkler_access_user_idx').on(table.userId),
  ],
);
