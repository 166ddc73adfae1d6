import type { LineString, ProgramData, SprinklerStatus } from '@pivot/contracts';
import { SPRINKLER_STATUSES } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The latest of what each machine reported, by its broker ID. Kept for machines not added yet
 * too, so a machine added later shows its state at once.
 */
export const machineState = pgTable('machine_state', {
  machineId: text('machine_id').primaryKey(),
  online: boolean('online').notNull().default(false),
  presenceAt: timestamp('presence_at', { withTimezone: true }),
  reportedAt: timestamp('reported_at', { withTimezone: true }),
  status: text('status', { enum: SPRINKLER_STATUSES }).$type<SprinklerStatus>(),
  angle: doublePrecision('angle'),
  distance: doublePrecision('distance'),
  speed: doublePrecision('speed'),
  pressure: doublePrecision('pressure'),
  flow: doublePrecision('flow'),
  alarm: text('alarm'),
  /** The arm as measured by the machine's GPS, when it has one. */
  position: jsonb('position').$type<LineString>(),
  programName: text('program_name'),
  programData: jsonb('program_data').$type<ProgramData>(),
  programUploadedAt: timestamp('program_uploaded_at', { withTimezone: true }),
  /**
   * When the row was last written, by the database's clock as the writing statement ran
   * (`clock_timestamp()`, set by every statement that writes the row): the incident watch judges
   * only the machines changed since its last look. Not `reported_at`, the machine's own clock,
   * by which a late report would look old. Not indexed, so the row's updates stay HOT.
   */
  changedAt: timestamp('changed_at', { withTimezone: true })
    .notNull()
    .default(sql`clock_timestamp()`),
});

export type MachineStateRow = typeof machineState.$inferSelect;

/** Every telemetry report; a report's identity is its machine and timestamp. */
export const telemetry = pgTable(
  'telemetry',
  {
    machineId: text('machine_id').notNull(),
    ts: timestamp('ts', { withTimezone: true, precision: 3 }).notNull(),
    status: text('status', { enum: SPRINKLER_STATUSES }).notNull(),
    angle: doublePrecision('angle').notNull(),
    distance: doublePrecision('distance').notNull(),
    speed: doublePrecision('speed').notNull(),
    pressure: doublePrecision('pressure').notNull(),
    flow: doublePrecision('flow').notNull(),
  },
  (table) => [primaryKey({ columns: [table.machineId, table.ts] }), index('telemetry_ts_idx').on(table.ts)],
);
