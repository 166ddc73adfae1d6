import { customType, date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres sends only a Buffer as bytes (a plain Uint8Array would go as JSON); PGlite takes either.
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  // node-postgres reads a Buffer (a Uint8Array), PGlite a Uint8Array.
  fromDriver: (value) => value,
});

/**
 * A machine's reports of one past local calendar day, packed (packed-day.ts), in place of their
 * rows in `telemetry`. A report that arrives for a day already packed stays a row; the reader
 * (stored-reports.ts) merges both.
 */
export const telemetryDays = pgTable(
  'telemetry_days',
  {
    machineId: text('machine_id').notNull(),
    /** The local calendar day (TIME_ZONE) the reports were sent on. */
    day: date('day', { mode: 'string' }).notNull(),
    packed: bytes('packed').notNull(),
    reportCount: integer('report_count').notNull(),
    firstTs: timestamp('first_ts', { withTimezone: true, precision: 3 }).notNull(),
    lastTs: timestamp('last_ts', { withTimezone: true, precision: 3 }).notNull(),
    packedAt: timestamp('packed_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.machineId, table.day] })],
);
