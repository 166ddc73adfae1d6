import type { SprinklerStatus } from '@pivot/contracts';
import { useMachineValues } from '../hooks/use-machine-values';

const STATUS_CLASSES: Record<SprinklerStatus, string> = {
  front: 'bg-success-soft text-success',
  back: 'bg-success-soft text-success',
  stop: 'bg-surface-muted text-ink-muted',
  alarm: 'bg-error-soft text-error',
};

/** The machine's status as a tag: working, at rest or in alarm; a dash when it has not said. */
export function StatusBadge({ status }: { status: SprinklerStatus | null }) {
  const values = useMachineValues();
  if (!status) return <span>{values.status(null)}</span>;
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASSES[status]}`}
    >
      {values.status(status)}
    </span>
  );
}
