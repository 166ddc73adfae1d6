import type { SprinklerStatus } from './sprinkler-fields';

/*
 * When a machine counts as online. No schema here (nor zod): the web app's first paint reads it
 * (a machine's presence dot and status) before zod is fetched. Exported through mqtt.ts.
 */

/** How often a machine reports (docs/protocol.md, "Telemetry"): moving or watering, and at rest. */
export const TELEMETRY_INTERVAL_MS = { moving: 5000, resting: 60_000 } as const;
/** A machine silent for this many of its report intervals is offline, though its connection may look open. */
export const INTERVALS_BEFORE_OFFLINE = 3;

/**
 * How long a machine may stay silent before it counts as offline, by what it last reported:
 * 15 s after a report of moving or watering, 3 minutes after one at rest. A controller that
 * froze with its TCP connection open sends no last will; only its silence tells.
 */
export function silenceBeforeOfflineMs(last: { status: SprinklerStatus | null; flow: number | null }): number {
  const moving = last.status === 'front' || last.status === 'back' || (last.flow ?? 0) > 0;
  return INTERVALS_BEFORE_OFFLINE * (moving ? TELEMETRY_INTERVAL_MS.moving : TELEMETRY_INTERVAL_MS.resting);
}

/**
 * Whether a machine is online: the broker says it is connected, and it has not been silent for
 * longer than its last report allows. One that is connected but has not reported yet is online.
 */
export function machineIsOnline(
  state: { online: boolean; reportedAt: number | null; status: SprinklerStatus | null; flow: number | null },
  now: number,
): boolean {
  if (!state.online) return false;
  return state.reportedAt === null || now - state.reportedAt <= silenceBeforeOfflineMs(state);
}
