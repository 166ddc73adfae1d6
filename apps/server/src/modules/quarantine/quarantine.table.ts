import { QUARANTINE_REASONS, type QuarantineExplanation, REPORT_KINDS } from '@pivot/contracts';
import { bigserial, customType, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Raw bytes: a payload may hold NUL or invalid UTF-8, which a text column refuses. */
const bytes = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres reads a Buffer already, PGlite a Uint8Array.
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Machine messages set aside instead of stored: the payload's first bytes (a 1 MB message is
 * not kept whole) with its full size, and why. Pruned after QUARANTINE_RETENTION_DAYS.
 */
export const quarantinedMessages = pgTable(
  'quarantined_messages',
  {
    // A flood of bad messages may set aside millions of rows over the years: a 32-bit id would run out.
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    machineId: text('machine_id').notNull(),
    deviceId: text('device_id').notNull(),
    topic: text('topic').notNull(),
    kind: text('kind', { enum: REPORT_KINDS }).notNull(),
    reason: text('reason', { enum: QUARANTINE_REASONS }).notNull(),
    /** The detail in English, as logs and older clients read it. */
    detail: text('detail').notNull(),
    /** The detail as a code and its parameters for the reader's language; null on rows kept before codes were. */
    explanation: jsonb('explanation').$type<QuarantineExplanation>(),
    payloadHead: bytes('payload_head').notNull(),
    payloadBytes: integer('payload_bytes').notNull(),
  },
  (table) => [index('quarantined_messages_received_at_idx').on(table.receivedAt)],
);

export type QuarantinedMessageRow = typeof quarantinedMessages.$inferSelect;
export type NewQuarantinedMessageRow = typeof quarantinedMessages.$inferInsert;
