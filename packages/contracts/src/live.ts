import { z } from 'zod';
import { IdSchema } from './common';
import { LineStringFeatureSchema } from './geojson';
import { CurrentProgramDataSchema } from './programs';
import { SprinklerStatusSchema } from './sprinklers';

/**
 * Server-sent events of GET /api/sprinkler/{id}/events: each event's name is its `type`,
 * its data one of these objects as JSON.
 */
export const LiveTelemetrySchema = z.strictObject({
  type: z.literal('telemetry'),
  /** ms since the epoch */
  timestamp: z.number(),
  status: SprinklerStatusSchema,
  angle: z.number(),
  distance: z.number(),
  speed: z.number(),
  pressure: z.number(),
  flow: z.number(),
  alarm: z.string().nullable(),
  currentPosition: LineStringFeatureSchema,
});

export const LivePresenceSchema = z.strictObject({ type: z.literal('presence'), online: z.boolean() });

export const LiveProgramSchema = z.strictObject({
  type: z.literal('program'),
  currentProgramData: CurrentProgramDataSchema.nullable(),
  currentProgramTimestamp: z.number().nullable(),
});

export const LiveEventSchema = z.discriminatedUnion('type', [
  LiveTelemetrySchema,
  LivePresenceSchema,
  LiveProgramSchema,
]);
export type LiveEvent = z.infer<typeof LiveEventSchema>;

const ofMachine = { sprinklerId: IdSchema };

/**
 * Server-sent events of GET /api/sprinkler/events, the signed-in user's machine list: the live
 * events of every machine the user may see, each with the machine's id, and `machines` when the
 * list itself changed (a machine granted, revoked, added or renamed) and should be read again.
 * Each event's name is its `type`, its data one of these objects as JSON.
 */
export const MachineListEventSchema = z.discriminatedUnion('type', [
  LiveTelemetrySchema.extend(ofMachine),
  LivePresenceSchema.extend(ofMachine),
  LiveProgramSchema.extend(ofMachine),
  z.strictObject({ type: z.literal('machines') }),
]);
export type MachineListEvent = z.infer<typeof MachineListEventSchema>;
