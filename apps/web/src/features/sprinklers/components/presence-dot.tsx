import { useTranslation } from 'react-i18next';
import { type MachinePresence, useMachineOnline } from '../hooks/use-machine-online';
import { useOnlineLabel } from '../hooks/use-online-label';

/** A dot, green while the machine is online, grey once it is offline; screen readers hear which. */
export function PresenceDot({ machine }: { machine: MachinePresence }) {
  const { t } = useTranslation();
  const online = useMachineOnline(machine);
  const onlineLabel = useOnlineLabel();
  const label = online ? onlineLabel : t('sprinklers.offline');
  return (
    <span className={`size-2.5 shrink-0 rounded-full ${online ? 'bg-success' : 'bg-ink-muted/50'}`} title={label}>
      <span className="sr-only">{label}</span>
    </span>
  );
}
