import { useTranslation } from 'react-i18next';
import { useConnection } from '@/lib/connection';
import { type MachinePresence, useMachineOnline } from '../hooks/use-machine-online';
import { ReportTime } from './report-time';

/**
 * When the machine last reported, for the machines table: how long ago while it is online,
 * "last known" with the time once it is offline or the app's connection is lost, and no report yet
 * when it never sent one.
 */
export function LastReport({ machine }: { machine: MachinePresence }) {
  const { t } = useTranslation();
  const online = useMachineOnline(machine);
  const connected = useConnection().online;
  if (machine.reportedAt === null) return <span className="text-ink-muted">{t('sprinklers.report.never')}</span>;
  if (online && connected) return <ReportTime timestamp={machine.reportedAt} />;
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5 text-ink-muted">
      {t('sprinklers.report.lastKnown')}
      <ReportTime timestamp={machine.reportedAt} />
    </span>
  );
}
