import { LOG_EVENT_TYPES } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const COMMAND_OUTCOMES = [
  'pending',
  'confirmed',
  'refused',
  'unreadable',
  'expired',
  'not_sent',
  /** The server stopped while it waited: whether the machine acted is not known. */
  'unknown',
] as const;
export type CommandRecordOutcome = (typeof COMMAND_OUTCOMES)[number];

/**
 * Every command to a machine, stored before it is published, with how it ended. A command left
 * pending by a server that stopped is settled as `unknown` and logged, so none ends unheard of.
 */
export const machineCommands = pgTable(
  'machine_commands',
  {
    /** Also the correlation id the machine's reply repeats. */
    id: uuid('id').primaryKey(),
    machineId: text('machine_id').notNull(),
    type: text('type', { enum: ['identify', 'motion', 'program'] }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    outcome: text('outcome', { enum: COMMAND_OUTCOMES }).notNull().default('pending'),
    settledAt: timestamp('settled_at', { withTimezone: true, precision: 3 }),
    detail: text('detail').notNull().default(''),
    /** What the activity log needs to tell of an outcome found after a restart. */
    actorUserId: integer('actor_user_id'),
    sprinklerId: integer('sprinkler_id'),
    sprinklerName: text('sprinkler_name'),
    event: text('event').notNull(),
    ip: text('ip').notNull(),
    failureEvent: text('failure_event', { enum: LOG_EVENT_TYPES }).notNull(),
  },
  (table) => [
    index('machine_commands_pending_idx')
      .on(table.sentAt)
      .where(sql`outcome = 'pending'`),
    // The incident watch asks when a person last moved a machine.
    index('machine_commands_machine_sent_idx').on(table.machineId, table.sentAt),
  ],
);

export type MachineCommandRow = typeof machineCommands.$inferSelect;
