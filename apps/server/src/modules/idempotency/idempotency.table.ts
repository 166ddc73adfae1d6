import { integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Requests that carried an Idempotency-Key, per user, with the answer they got once it is known:
 * the same request again (a retry, a second tab, a double submit) gets that answer, not a
 * second command. Kept for a day.
 */
export const idempotentRequests = pgTable(
  'idempotent_requests',
  {
    userId: integer('user_id').notNull(),
    /** SHA-256 of the Idempotency-Key: the key itself opens the sealed answer (sealed-answers.ts). */
    key: text('key').notNull(),
    /** Method, path and a hash of the body: the same key for another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The instance (its SERVER_ID) and the run of its process that handles the request: a row
     * still pending from an earlier run of the same instance was cut short by a crash. Null on
     * rows from before.
     */
    claimedByServer: text('claimed_by_server'),
    claimedByRun: text('claimed_by_run'),
    /** Null while the first request is being handled. */
    status: smallint('status'),
    contentType: text('content_type'),
    /** The answer's body, sealed under a key derived from the Idempotency-Key. */
    body: text('body'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);

export type IdempotentRequestRow = typeof idempotentRequests.$inferSelect;
