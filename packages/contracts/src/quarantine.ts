import { z } from 'zod';
import { PagingQuerySchema, listResponseOf } from './common';
import type { TopicKind } from './mqtt';

/**
 * Why a machine message was set aside instead of stored: it broke the protocol (larger than the
 * protocol allows, not JSON, not valid, a clock far ahead, older than the backfill window,
 * reaching beyond its machine's arm), the database refused it, or it came after its machine's
 * quarantine share of the minute was used (a summary of those, with the last of them;
 * docs/protocol.md, "What the server does with a message that breaks the protocol").
 */
export const QUARANTINE_REASONS = [
  'too_large',
  'not_json',
  'invalid',
  'clock_ahead',
  'too_old',
  'beyond_arm',
  'refused',
  'rate_limited',
] as const;
export const QuarantineReasonSchema = z.enum(QUARANTINE_REASONS);
export type QuarantineReason = z.infer<typeof QuarantineReasonSchema>;

/** The kinds of message a machine, station or sensor reports: those that may be set aside. */
export const REPORT_KINDS = [
  'presence',
  'telemetry',
  'program',
  'weather',
  'soil',
] as const satisfies readonly TopicKind[];
export const ReportKindSchema = z.enum(REPORT_KINDS);
export type ReportKind = z.infer<typeof ReportKindSchema>;

/** What a schema found wrong with one field, as a code the reader's language words. */
export const SCHEMA_PROBLEMS = ['type', 'too_big', 'too_small', 'format', 'value', 'unknown_field'] as const;
export const SchemaProblemSchema = z.enum(SCHEMA_PROBLEMS);
export type SchemaProblem = z.infer<typeof SchemaProblemSchema>;

const armReach = { armLength: z.number(), endGunMargin: z.number() };

/** Why a message broke the protocol or was refused, as a stable code and its parameters. */
const MessageExplanationSchema = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('too_large'), bytes: z.number(), limit: z.number() }),
  z.strictObject({ code: z.literal('not_json') }),
  /** A program whose polygons have more corners in all than MAX_CORNERS_PER_MESSAGE. */
  z.strictObject({ code: z.literal('too_many_corners'), corners: z.number(), limit: z.number() }),
  z.strictObject({
    code: z.literal('invalid'),
    /** Each field the schema found wrong (`(message)` for the whole), with the limit it broke when it has one. */
    issues: z.array(z.strictObject({ path: z.string(), problem: SchemaProblemSchema, limit: z.number().optional() })),
  }),
  z.strictObject({ code: z.literal('clock_ahead'), ts: z.number() }),
  z.strictObject({ code: z.literal('too_old'), ts: z.number() }),
  z.strictObject({ code: z.literal('distance_beyond_arm'), distance: z.number(), ...armReach }),
  z.strictObject({
    code: z.literal('position_beyond_arm'),
    lng: z.number(),
    lat: z.number(),
    fromCentre: z.number(),
    ...armReach,
  }),
  /** The database's own words: they are the database's language, not the app's. */
  z.strictObject({ code: z.literal('refused'), databaseMessage: z.string() }),
]);
export type MessageExplanation = z.infer<typeof MessageExplanationSchema>;

/**
 * The detail of a set-aside message for the reader's language: what `detail` says in English,
 * as a code and its parameters. A machine's flood within a minute is summarised with the last
 * message's own explanation.
 */
export const QuarantineExplanationSchema = z.union([
  MessageExplanationSchema,
  z.strictObject({
    code: z.literal('rate_limited'),
    notKept: z.number().int(),
    /** When the machine's minute began, ms since the epoch. */
    since: z.number(),
    keptPerMinute: z.number().int(),
    notKeptByReason: z.array(z.strictObject({ reason: QuarantineReasonSchema, count: z.number().int() })),
    lastReason: QuarantineReasonSchema,
    last: MessageExplanationSchema,
  }),
]);
export type QuarantineExplanation = z.infer<typeof QuarantineExplanationSchema>;

export const QuarantinedMessageSchema = z.strictObject({
  id: z.number().int().positive(),
  /** When the server set it aside, ms since the epoch. */
  receivedAt: z.number(),
  /** The machine whose topic it came on, and the device that sent it (the machine, or its station or sensor). */
  machineId: z.string(),
  deviceId: z.string(),
  kind: ReportKindSchema,
  topic: z.string(),
  reason: QuarantineReasonSchema,
  /** What was wrong, in the server's words: the schema's complaints, the timestamp, the database's error. */
  detail: z.string(),
  /** The same detail as a code and its parameters, to be shown in the reader's language; null on rows kept before codes were. */
  explanation: QuarantineExplanationSchema.nullable(),
  /**
   * The beginning of the payload as text: invalid UTF-8 as U+FFFD, control characters as their
   * visible symbols (NUL as ␀; line breaks and tabs stay). Render it as text, never as HTML.
   */
  payloadPreview: z.string(),
  /** The whole payload's size in bytes; only its beginning was kept. */
  payloadBytes: z.number().int().nonnegative(),
  /** True when the preview is only the beginning of the payload. */
  payloadTruncated: z.boolean(),
});
export type QuarantinedMessage = z.infer<typeof QuarantinedMessageSchema>;

/** Newest first. */
export const QuarantineListQuerySchema = PagingQuerySchema;
export type QuarantineListQuery = z.infer<typeof QuarantineListQuerySchema>;

export const QuarantineListResponseSchema = listResponseOf(QuarantinedMessageSchema);
export type QuarantineListResponse = z.infer<typeof QuarantineListResponseSchema>;
