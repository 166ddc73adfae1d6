import type { SprinklerDetail } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useConnection } from '@/lib/connection';
import { Card } from '@/ui/card';
import type { LiveSprinkler } from '../hooks/use-live-sprinkler';
import { useMachineOnline } from '../hooks/use-machine-online';
import { useMachineValues } from '../hooks/use-machine-values';
import { useOnlineLabel } from '../hooks/use-online-label';
import { OfflineStatus } from './machine-status';
import { ReportTime } from './report-time';
import { StatusBadge } from './status-badge';

/**
 * What the machine is doing: online or not, its status and alarm, its measured values and when
 * it measured them. Offline, the values are its last known (dimmed) and the status what it was
 * last doing; a machine that never reported has no values to show.
 */
export function StatusPanel({ sprinkler, live }: { sprinkler: SprinklerDetail; live: LiveSprinkler }) {
  const { t } = useTranslation();
  const online = useMachineOnline(sprinkler);
  const connected = useConnection().online;
  const onlineLabel = useOnlineLabel();
  // The protocol leaves alarm reasons open: the known ones are translated, others shown as sent.
  const alarmReason = (alarm: string | null) => {
    if (alarm === null) return t('sprinklers.alarms.unknown');
    return alarm === 'pressure_loss' ? t('sprinklers.alarms.pressure_loss') : alarm;
  };

  return (
    <Card aria-labelledby="machine-status-title" className="flex flex-col gap-4">
      <h2 id="machine-status-title" className="text-lg font-semibold">
        {t('sprinklers.status.title')}
      </h2>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="inline-flex items-center gap-2 text-sm font-medium">
          <span className={`size-2.5 rounded-full ${online ? 'bg-success' : 'bg-error'}`} aria-hidden="true" />
          {online && onlineLabel}
        </span>
        {online ? <StatusBadge status={sprinkler.status} /> : <OfflineStatus was={sprinkler.status} />}
        {connected && live.connection === 'reconnecting' && (
          <span className="text-sm text-warning">{t('sprinklers.live.reconnecting')}</span>
        )}
      </div>
      {online && sprinkler.status === 'alarm' && (
        <p role="alert" className="rounded-md bg-error-soft px-3 py-2 text-sm font-semibold text-error">
          {t('sprinklers.status.alarmNow', { reason: alarmReason(live.alarm) })}
        </p>
      )}
      {sprinkler.reportedAt === null ? (
        <p className="text-sm text-ink-muted">{t('sprinklers.report.neverDetail')}</p>
      ) : (
        <MeasuredValues sprinkler={sprinkler} reportedAt={sprinkler.reportedAt} live={online && connected} />
      )}
    </Card>
  );
}

/**
 * The values of the machine's latest report with its time: live, or dimmed as the last known (the
 * machine is offline, or the app's connection is lost).
 */
function MeasuredValues({
  sprinkler,
  reportedAt,
  live,
}: {
  sprinkler: SprinklerDetail;
  reportedAt: number;
  live: boolean;
}) {
  const { t } = useTranslation();
  const values = useMachineValues();
  const facts = [
    ['speed', values.speed(sprinkler.speed)],
    ['pressure', values.pressure(sprinkler.pressure)],
    ['flow', values.flow(sprinkler.flow)],
    ['angle', values.angle(sprinkler.angle)],
    ['distance', values.distance(sprinkler.distance)],
  ] as const;
  return (
    <div className="flex flex-col gap-2">
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm text-ink-muted">
        <span className={live ? undefined : 'font-semibold'}>
          {live ? t('sprinklers.report.latest') : t('sprinklers.report.lastKnownValues')}
        </span>
        <ReportTime timestamp={reportedAt} />
      </p>
      <dl
        className={`grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-2 ${live ? '' : 'text-ink-muted'}`}
      >
        {facts.map(([name, text]) => (
          <div key={name} className="flex flex-col">
            <dt className="text-ink-muted">{t(`sprinklers.columns.${name}`)}</dt>
            <dd className={`text-base tabular-nums ${live ? 'font-semibold' : 'font-normal'}`}>{text}</dd>
            {name === 'pressure' && (
              <dd className="text-xs text-ink-muted">
                {sprinkler.lowPressureBar === 0
                  ? t('sprinklers.lowPressureAlert.off')
                  : t('sprinklers.lowPressureAlert.below', { pressure: values.pressure(sprinkler.lowPressureBar) })}
              </dd>
            )}
          </div>
        ))}
      </dl>
    </div>
  );
}
