import type { ReactNode } from 'react';
import { useConnection } from '@/lib/connection';
import { type MachinePresence, useMachineOnline } from '../hooks/use-machine-online';

/**
 * A value the machine measured: as it is while the machine is online, dimmed once it is only the
 * last known (the machine is offline, or the app's connection is lost).
 */
export function MeasuredValue({ machine, children }: { machine: MachinePresence; children: ReactNode }) {
  const online = useMachineOnline(machine);
  const connected = useConnection().online;
  return <span className={online && connected ? undefined : 'text-ink-muted'}>{children}</span>;
}
