import type { SprinklerDetail } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { Card } from '@/ui/card';
import type { LiveSprinkler } from '../hooks/use-live-sprinkler';
import { useMachineValues } from '../hooks/use-machine-values';
import { StatusBadge } from './status-badge';

/** What the machine is doing now: status, alarm, connection and its measured values. */
export function StatusPanel({ sprinkler, live }: { sprinkler: SprinklerDetail; live: LiveSprinkler }) {
  const { t } = useTranslation();
  const values = useMachineValues();
  // The protocol leaves alarm reasons open: the known ones are translated, others shown as sent.
  const alarmReason = (alarm: string | null) => {
    if (alarm === null) return t('sprinklers.alarms.unknown');
    return alarm === 'pressure_loss' ? t('sprinklers.alarms.pressure_loss') : alarm;
  };
  const facts = [
    ['speed', values.speed(sprinkler.speed)],
    ['pressure', values.pressure(sprinkler.pressure)],
    ['flow', values.flow(sprinkler.flow)],
    ['angle', values.angle(sprinkler.angle)],
    ['distance', values.distance(sprinkler.distance)],
  ] as const;

  return (
    <Card aria-labelledby="machine-status-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="machine-status-title" className="text-lg font-semibold">
          {t('sprinklers.status.title')}
        </h2>
        <span className="inline-flex items-center gap-2 text-sm font-medium">
          <span
            className={`size-2.5 rounded-full ${sprinkler.online ? 'bg-success' : 'bg-error'}`}
            aria-hidden="true"
          />
          {sprinkler.online ? t('sprinklers.online') : t('sprinklers.offline')}
        </span>
      </div>
      <div className="flex items-center gap-3">
        <StatusBadge status={sprinkler.status} />
        {live.connection === 'reconnecting' && (
          <span className="text-sm text-warning">{t('sprinklers.live.reconnecting')}</span>
        )}
      </div>
      {sprinkler.status === 'alarm' && (
        <p role="alert" className="rounded-md bg-error-soft px-3 py-2 text-sm font-semibold text-error">
          {t('sprinklers.status.alarmNow', { reason: alarmReason(live.alarm) })}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-2">
        {facts.map(([name, text]) => (
          <div key={name} className="flex flex-col">
            <dt className="text-ink-muted">{t(`sprinklers.columns.${name}`)}</dt>
            <dd className="text-base font-semibold tabular-nums">{text}</dd>
          </div>
        ))}
      </dl>
      {live.reportedAt !== null && (
        <p className="text-xs text-ink-muted">
          {t('sprinklers.live.reportedAt', { date: values.date(live.reportedAt) })}
        </p>
      )}
    </Card>
  );
}
