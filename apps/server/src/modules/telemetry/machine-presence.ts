import type { MachineStateRow } from './telemetry.table';

/**
 * Online while the broker says the machine is connected and it has reported within three of
 * its longest telemetry intervals (docs/protocol.md).
 */
export const SILENCE_BEFORE_OFFLINE_MS = 3 * 60_000;

export function isOnline(state: MachineStateRow | undefined, now = Date.now()): boolean {
  if (!state?.online) return false;
  return state.reportedAt === null || now - state.reportedAt.getTime() < SILENCE_BEFORE_OFFLINE_MS;
}
