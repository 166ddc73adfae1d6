import { index, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';
import { users } from '../users/users.table';

/** Which users may see and control which machines. */
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
  },
  (table) => [
    primaryKey({ columns: [table.sprinklerId, table.userId] }),
    index('sprinkler_access_user_idx').on(table.userId),
  ],
);
