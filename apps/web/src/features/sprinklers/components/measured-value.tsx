import type { ReactNode } from 'react';
import { type MachinePresence, useMachineOnline } from '../hooks/use-machine-online';

/** A value the machine measured: as it is while the machine is online, dimmed once it is only the last known. */
export function MeasuredValue({ machine, children }: { machine: MachinePresence; children: ReactNode }) {
  const online = useMachineOnline(machine);
  return <span className={online ? undefined : 'text-ink-muted'}>{children}</span>;
}
