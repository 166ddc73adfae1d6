import type { AlertChannel, IncidentKind } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { logEntries } from '../logs/logs.table';
import { users } from '../users/users.table';

/** A user's own choice of alerts; a user without a row has the administrators' defaults. */
export const alertSettings = pgTable('alert_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  kinds: jsonb('kinds').$type<IncidentKind[]>().notNull(),
  channels: jsonb('channels').$type<AlertChannel[]>().notNull(),
  mutedMachineIds: jsonb('muted_machine_ids').$type<number[]>().notNull(),
});

/** The administrators' defaults: one row (id 1) once they set them; built-in defaults before. */
export const alertDefaults = pgTable('alert_defaults', {
  id: smallint('id').primaryKey(),
  kinds: jsonb('kinds').$type<IncidentKind[]>().notNull(),
  channels: jsonb('channels').$type<AlertChannel[]>().notNull(),
});

/**
 * Alerts to deliver by e-mail or Web Push, one row per user, channel and incident phase, written
 * in the transaction that records the incident, so none is lost or sent twice by a crash. A
 * user's e-mail rows that wait together go out as one mail (docs/alerts.md).
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    logEntryId: integer('log_entry_id')
      .notNull()
      .references(() => logEntries.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'push'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
    /** A push being sent: another sender leaves it until then, and takes it up after (its sender died). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true, precision: 3 }),
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [
    index('alert_deliveries_waiting_idx')
      .on(table.channel, table.createdAt)
      .where(sql`delivered_at is null`),
  ],
);

export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;

/**
 * The browsers that asked for Web Push, by user; a subscription the push service says is gone is
 * deleted, and so is one that kept failing (docs/alerts.md).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Rounds in a row in which its push service refused or did not answer; 0 once it takes one. */
    failures: integer('failures').notNull().default(0),
    /** When the current run of failures began; null while it works. */
    failingSince: timestamp('failing_since', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(table.endpoint),
    index('push_subscriptions_user_idx').on(table.userId),
  ],
);

/**
 * The server's VAPID key pair for Web Push (one row, id 1), made at the first start so that every
 * instance signs with the same key the browsers subscribed with.
 */
export const pushKeys = pgTable('push_keys', {
  id: smallint('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
});
