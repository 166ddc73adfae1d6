import { machineIsOnline } from '@pivot/contracts';
import type { MachineStateRow } from './telemetry.table';

/**
 * Online while the broker says the machine is connected and it has reported within three of its
 * report intervals for what it last reported (docs/protocol.md, "Online and offline").
 */
export function isOnline(
  state: Pick<MachineStateRow, 'online' | 'reportedAt' | 'status' | 'flow'> | undefined,
  now = Date.now(),
): boolean {
  if (!state) return false;
  return machineIsOnline({ ...state, reportedAt: state.reportedAt?.getTime() ?? null }, now);
}
