import { type SprinklerListItem, machineIsOnline } from '@pivot/contracts';
import { useSyncExternalStore } from 'react';
import { useConnection } from '@/lib/connection';
import { serverNow, subscribeToClock } from '@/lib/server-clock';

/** What tells whether a machine is online: the server's word, and its latest report. */
export type MachinePresence = Pick<SprinklerListItem, 'online' | 'reportedAt' | 'status' | 'flow'>;

/**
 * Whether the machine is online now, by the protocol's rule (`machineIsOnline`): the server
 * says it is connected, and it has not been silent for three of its report intervals. Asked
 * again every second, so a controller that froze with its connection open goes offline on an
 * open page though no event comes; the component shows again only when the answer changes.
 * While the app's own connection is lost, nothing can be known of the machine since: the answer
 * is the one of the moment the connection was lost (silence the app cannot hear is not the
 * machine's).
 */
export function useMachineOnline(machine: MachinePresence): boolean {
  const { online, reportedAt, status, flow } = machine;
  const { knownAt } = useConnection();
  const at = () => (knownAt === null ? serverNow() : serverNow() - (Date.now() - knownAt));
  const isOnline = () => machineIsOnline({ online, reportedAt, status, flow }, at());
  return useSyncExternalStore(subscribeToClock, isOnline, isOnline);
}
