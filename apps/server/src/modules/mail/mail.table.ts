import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Outgoing mail, written in the same transaction as what caused it and sent by the outbox worker. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /**
     * A mail whose link carries a secret (activation, password reset) holds SECRET_PLACEHOLDER in
     * its place: this issuer makes the secret for this record only as the mail is sent, and it is
     * never written here, so no outbox row (nor a backup of one) holds a usable link.
     */
    secretIssuer: text('secret_issuer'),
    secretFor: integer('secret_for'),
    /** cancelled: its secret's record no longer wanted it sent (a newer link replaced it, or its account went). */
    status: text('status', { enum: ['pending', 'sent', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt)],
);
