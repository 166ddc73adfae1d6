import { useTranslation } from 'react-i18next';
import { type MachinePresence, useMachineOnline } from '../hooks/use-machine-online';
import { StatusBadge } from './status-badge';

/**
 * What the machine is doing: its status while online; once offline, "Offline" and what it was
 * last doing ("was moving forward"), never the last status as if it were live.
 */
export function MachineStatus({ machine }: { machine: MachinePresence }) {
  const online = useMachineOnline(machine);
  return online ? <StatusBadge status={machine.status} /> : <OfflineStatus was={machine.status} />;
}

/** An offline machine's status, with what it was last doing when it reported any. */
export function OfflineStatus({ was }: { was: MachinePresence['status'] }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="inline-flex items-center rounded-full border border-line bg-surface-muted px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-ink">
        {t('sprinklers.offline')}
      </span>
      {was && <span className="text-sm">{t(`sprinklers.wasDoing.${was}`)}</span>}
    </span>
  );
}
