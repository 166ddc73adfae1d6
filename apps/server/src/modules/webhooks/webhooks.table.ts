import { WEBHOOK_SCOPES } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { logEntries } from '../logs/logs.table';
import { users } from '../users/users.table';

/**
 * Addresses that receive alerts as signed JSON: a user's own ('own': the alerts that user
 * receives) or an administrator's for everyone ('all': every alert). The secret signs each
 * delivery, so it is kept as it is (the owner reads it back to give it to the receiver).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial('id').primaryKey(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: WEBHOOK_SCOPES }).notNull(),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Set while paused: nothing is queued for it, and what waited was dropped. */
    pausedAt: timestamp('paused_at', { withTimezone: true, precision: 3 }),
    /** The server paused it because it kept failing (its owner was told in the activity log). */
    pausedByServer: boolean('paused_by_server').notNull().default(false),
    /** The last attempt, whether it succeeded or not. */
    lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true, precision: 3 }),
    lastError: text('last_error'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** The first failure since the last success: a webhook failing for a day is paused. */
    failingSince: timestamp('failing_since', { withTimezone: true, precision: 3 }),
  },
  (table) => [index('webhooks_owner_idx').on(table.ownerUserId)],
);

export type WebhookRow = typeof webhooks.$inferSelect;

/**
 * One row per webhook and alert, written in the transaction that records the incident (as the
 * e-mail and push deliveries are), with the body as it will be sent. A sender leases the rows it
 * sends, so two instances never send one twice; a failure is retried with growing delays for a
 * day, then given up.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    logEntryId: integer('log_entry_id')
      .notNull()
      .references(() => logEntries.id, { onDelete: 'cascade' }),
    /** The JSON body (WebhookPayload), in the owner's language at the time. */
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Being sent: another sender leaves it until then, and takes it up after (its sender died). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true, precision: 3 }),
    attempts: integer('attempts').notNull().default(0),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
    gaveUpAt: timestamp('gave_up_at', { withTimezone: true, precision: 3 }),
    lastError: text('last_error'),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_alert_key').on(table.webhookId, table.logEntryId),
    index('webhook_deliveries_waiting_idx')
      .on(table.nextAttemptAt)
      .where(sql`delivered_at is null and gave_up_at is null`),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
