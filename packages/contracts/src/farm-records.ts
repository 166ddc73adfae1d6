import { z } from 'zod';
import { DottedDateSchema, IdSchema, IdTextSchema } from './common';

/**
 * The farm's own records (issue 34 part 4, docs/advice.md "The farm's own records"): what the
 * farmer measured or did that the machine and its station cannot know, entered into the
 * soil-water balance of the day they are for.
 *
 * - `rain_gauge`: the rain a gauge caught that day (mm); it replaces the station's rain there.
 * - `irrigation`: water from another source that day (mm, as the watermap's water, before the
 *   efficiency); it is added to the water the machine gave.
 * - `probe`: a reading typed in for a probe that is wrong (volumetric %): that day's balance takes
 *   it instead of the probe's own.
 */
export const FARM_RECORD_KINDS = ['rain_gauge', 'irrigation', 'probe'] as const;
export type FarmRecordKind = (typeof FARM_RECORD_KINDS)[number];

/** The most water one record may hold: more than any day's rain or dose on a field (a typo, or cm for mm). */
export const MAX_RECORD_MM = 500;

/**
 * Where a rain gauge's reading or another source's water fell: the whole machine, one crop zone
 * (named as the water balance names it: the season's name) or one sector of the machine's loaded
 * program (its name).
 */
export const RecordAreaSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('machine') }),
  z.strictObject({ kind: z.literal('zone'), name: z.string().trim().min(1).max(100) }),
  z.strictObject({ kind: z.literal('sector'), name: z.string().trim().min(1).max(100) }),
]);
export type RecordArea = z.infer<typeof RecordAreaSchema>;

const WaterMmSchema = z
  .number({ error: 'Give the water in mm' })
  .min(0, 'The water cannot be negative')
  .max(MAX_RECORD_MM, `At most ${MAX_RECORD_MM} mm: more than that never falls on a field in a day`);

export const FarmRecordBodySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('rain_gauge'), date: DottedDateSchema, area: RecordAreaSchema, mm: WaterMmSchema }),
  z.strictObject({ kind: z.literal('irrigation'), date: DottedDateSchema, area: RecordAreaSchema, mm: WaterMmSchema }),
  z.strictObject({
    kind: z.literal('probe'),
    date: DottedDateSchema,
    /** The probe's id, as the water balance's `probes` list it. */
    probe: z.string().trim().min(1).max(100),
    /** Volumetric water content, %, as a probe reports it. */
    moisture: z.number().min(0, 'Moisture is a share of 0–100 %').max(100, 'Moisture is a share of 0–100 %'),
  }),
]);
export type FarmRecordBody = z.infer<typeof FarmRecordBodySchema>;

const RecordStampSchema = z.strictObject({
  id: IdSchema,
  /** ms since the epoch */
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const FarmRecordSchema = z.union([
  RecordStampSchema.extend({
    kind: z.literal('rain_gauge'),
    date: DottedDateSchema,
    area: RecordAreaSchema,
    mm: z.number(),
  }),
  RecordStampSchema.extend({
    kind: z.literal('irrigation'),
    date: DottedDateSchema,
    area: RecordAreaSchema,
    mm: z.number(),
  }),
  RecordStampSchema.extend({
    kind: z.literal('probe'),
    date: DottedDateSchema,
    probe: z.string(),
    moisture: z.number(),
  }),
]);
export type FarmRecord = z.infer<typeof FarmRecordSchema>;

/** A machine's records, the newest day first. */
export const FarmRecordListSchema = z.array(FarmRecordSchema);

export const FarmRecordParamsSchema = z.strictObject({ id: IdTextSchema, recordId: IdTextSchema });
export type FarmRecordParams = z.infer<typeof FarmRecordParamsSchema>;

/**
 * A record's subject in the activity log, the same in every language (its date, value and area
 * or probe); the log's subtitle names its kind in the reader's language.
 */
export function loggedRecord(record: FarmRecordBody): string {
  if (record.kind === 'probe') return `${record.date} · ${record.probe} · ${record.moisture} %`;
  const area = record.area.kind === 'machine' ? '' : ` · ${record.area.name}`;
  return `${record.date} · ${record.mm} mm${area}`;
}
