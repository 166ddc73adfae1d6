import type { FarmRecordKind, RecordArea } from '@pivot/contracts';
import { date, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { sprinklers } from '../sprinklers/sprinklers.table';
import { users } from '../users/users.table';

/**
 * The farm's own records of a machine (docs/advice.md, "The farm's own records"): a rain gauge's
 * reading, water from another source, a probe's reading typed in for a wrong probe. Each enters
 * the water balance of its day.
 */
export const farmRecords = pgTable(
  'farm_records',
  {
    id: serial('id').primaryKey(),
    sprinklerId: integer('sprinkler_id')
      .notNull()
      .references(() => sprinklers.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<FarmRecordKind>().notNull(),
    /** The local day the record is for. */
    day: date('day', { mode: 'string' }).notNull(),
    /** Where the rain or water fell; null for a probe's reading. */
    area: jsonb('area').$type<RecordArea>(),
    /** The rain or water, mm; null for a probe's reading. */
    mm: doublePrecision('mm'),
    /** The probe's id and the moisture typed in for it (volumetric %); null for rain and water. */
    probe: text('probe'),
    moisture: doublePrecision('moisture'),
    /** Where the probe last reported when the record was made: the cell the reading stands for. */
    probeLat: doublePrecision('probe_lat'),
    probeLng: doublePrecision('probe_lng'),
    /** Who made or last changed it; null once that account is deleted. */
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('farm_records_sprinkler_day_idx').on(table.sprinklerId, table.day)],
);

export type FarmRecordRow = typeof farmRecords.$inferSelect;
export type NewFarmRecordRow = typeof farmRecords.$inferInsert;
