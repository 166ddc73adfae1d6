import type { MachinePresence } from '../hooks/use-machine-online';
import { LastReport } from './last-report';
import { MachineStatus } from './machine-status';

/** The machines table's status: what the machine is doing (or was, when offline) and when it said so. */
export function MachineState({ machine }: { machine: MachinePresence }) {
  return (
    <span className="flex flex-col items-start gap-1">
      <MachineStatus machine={machine} />
      <span className="text-xs">
        <LastReport machine={machine} />
      </span>
    </span>
  );
}
