import {
  MACHINE_LIMITS,
  PROTOCOL_VERSION,
  SPRINKLER_STATUSES,
  type SprinklerStatus,
  type TelemetryMessage,
} from '@pivot/contracts';

/** The fields of a report without an alarm or a GPS position, the one a running fleet sends all day. */
const PLAIN_FIELDS = 8;

/**
 * A telemetry report taken without the schema when it is plainly valid: exactly the eight fields
 * every report has, each a number within its bound or a known status. It is thousands of times a
 * second the one message the server receives, and this costs a fraction of the schema's check.
 * Anything else (an alarm, a position, a field too many, one value out of bounds) returns
 * undefined and goes through `TelemetryMessageSchema`, which accepts it or rejects it with its
 * reasons: this never rejects, so what is rejected, and why, is the schema's alone. What it
 * returns is what the schema would: the same fields in the same order.
 */
export function plainTelemetry(json: unknown): TelemetryMessage | undefined {
  if (typeof json !== 'object' || json === null || Object.keys(json).length !== PLAIN_FIELDS) return undefined;
  const { v, ts, status, angle, distance, speed, pressure, flow } = json as Record<string, unknown>;
  if (v !== PROTOCOL_VERSION) return undefined;
  if (!Number.isInteger(ts) || !within(ts, MACHINE_LIMITS.earliestTs, MACHINE_LIMITS.latestTs)) return undefined;
  if (!SPRINKLER_STATUSES.includes(status as SprinklerStatus)) return undefined;
  if (!within(angle, 0, 360) || angle === 360) return undefined;
  if (!within(distance, 0, MACHINE_LIMITS.armLengthM) || !within(speed, 0, 100)) return undefined;
  if (!within(pressure, 0, MACHINE_LIMITS.pressureBar) || !within(flow, 0, MACHINE_LIMITS.flowM3h)) return undefined;
  return { v, ts, status: status as SprinklerStatus, angle, distance, speed, pressure, flow };
}

/** A finite number from `min` to `max`, both included. */
function within(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && value >= min && value <= max;
}
