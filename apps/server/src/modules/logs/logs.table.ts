import { LOG_EVENT_TYPES } from '@pivot/contracts';
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { farms } from '../access/access.table';
import { sprinklers } from '../sprinklers/sprinklers.table';
import { users } from '../users/users.table';

export const logEntries = pgTable(
  'log_entries',
  {
    id: serial('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    eventType: text('event_type', { enum: LOG_EVENT_TYPES }).notNull(),
    /** Who did it; null for events the server raised itself or once that user is deleted. */
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The user the event is about, if any. */
    subjectUserId: integer('subject_user_id').references(() => users.id, { onDelete: 'set null' }),
    sprinklerId: integer('sprinkler_id').references(() => sprinklers.id, { onDelete: 'set null' }),
    /** Kept as they were at the time, so the entry still reads right after a rename or delete. */
    sprinklerName: text('sprinkler_name'),
    sprinklerInternalId: text('sprinkler_internal_id'),
    /** The farm the event is about: its managers read it in the farm's log. */
    farmId: integer('farm_id').references(() => farms.id, { onDelete: 'set null' }),
    farmName: text('farm_name'),
    /** The dealer the actor acted for, through the farm's grant to it (docs/roles.md). */
    dealerName: text('dealer_name'),
    event: text('event').notNull(),
    details: text('details').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (table) => [
    index('log_entries_created_idx').on(table.createdAt),
    index('log_entries_actor_idx').on(table.actorUserId),
    index('log_entries_subject_idx').on(table.subjectUserId),
    index('log_entries_sprinkler_idx').on(table.sprinklerId),
    index('log_entries_farm_idx').on(table.farmId),
  ],
);

export type LogEntryRow = typeof logEntries.$inferSelect;

/** Per user, the moment up to which the activity log counts as read. */
export const logReads = pgTable('log_reads', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  readAt: timestamp('read_at', { withTimezone: true }).notNull(),
});

/**
 * Entries a user read one by one (the ones the notifications list showed them) after the
 * moment in `log_reads`; marking the whole log read makes theirs redundant and removes them.
 */
export const logEntryReads = pgTable(
  'log_entry_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    logEntryId: integer('log_entry_id')
      .notNull()
      .references(() => logEntries.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.logEntryId] })],
);
