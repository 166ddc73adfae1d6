import type { DealerFleetFarm } from '@pivot/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useLocale } from '@/i18n/use-locale';
import { useCurrentFarm } from '@/lib/current-farm';
import { Badge } from '@/ui/badge';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { FarmIcon } from '@/ui/other-icons';
import { useFleet } from '../api/get-fleet';

type Count = keyof DealerFleetFarm['machines'];
const COUNTS: readonly Count[] = ['total', 'online', 'moving', 'inAlarm'];
const COUNT_TONES: Record<Count, string> = {
  total: 'text-ink',
  online: 'text-success',
  moving: 'text-water',
  inAlarm: 'text-error',
};

/**
 * One farm granted to the user's dealer: who granted it to which dealer, how, until when, its
 * machines, their open incidents and the next irrigation planned; its link switches the machines
 * table to the farm.
 */
function FleetCard({ entry }: { entry: DealerFleetFarm }) {
  const { t } = useTranslation();
  const format = useDateTimeFormat();
  const headingId = useId();
  const [, switchTo] = useCurrentFarm();
  const { nextIrrigation } = entry;
  return (
    <Card aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex items-start gap-3">
        <FarmIcon className="mt-0.5 size-6 shrink-0 text-water" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 id={headingId} className="text-lg font-semibold [overflow-wrap:anywhere]">
            {entry.farm.name}
          </h2>
          <p className="text-sm text-ink-muted [overflow-wrap:anywhere]">
            {t('dealers.fleet.through', { dealer: entry.dealerName })}
          </p>
        </div>
        <Badge tone={entry.level === 'control' ? 'water' : 'muted'}>{t(`dealers.fleet.levels.${entry.level}`)}</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 md:grid-cols-2 lg:grid-cols-4">
        {COUNTS.map((count) => (
          <div key={count} className="flex flex-col rounded-lg bg-surface-muted px-3 py-2">
            <dt className="text-xs font-medium text-ink-muted">{t(`dealers.fleet.counts.${count}`)}</dt>
            <dd
              className={`text-2xl font-semibold tabular-nums ${entry.machines[count] > 0 ? COUNT_TONES[count] : ''}`}
            >
              {entry.machines[count]}
            </dd>
          </div>
        ))}
        <div className="flex flex-col rounded-lg bg-surface-muted px-3 py-2">
          <dt className="text-xs font-medium text-ink-muted">{t('dealers.fleet.openIncidents')}</dt>
          <dd className={`text-2xl font-semibold tabular-nums ${entry.openIncidents > 0 ? 'text-error' : ''}`}>
            {entry.openIncidents}
          </dd>
        </div>
        <div className="col-span-2 flex flex-col rounded-lg bg-surface-muted px-3 py-2 sm:col-span-3 md:col-span-1 lg:col-span-3">
          <dt className="text-xs font-medium text-ink-muted">{t('dealers.fleet.nextIrrigation')}</dt>
          <dd className="font-medium [overflow-wrap:anywhere]">
            {nextIrrigation === null
              ? t('dealers.fleet.noIrrigationPlanned')
              : t('dealers.fleet.irrigationAt', {
                  machine: nextIrrigation.machine.name,
                  time: format.dateTime(nextIrrigation.at),
                })}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-muted">
          {entry.expiresAt === null
            ? t('dealers.fleet.untilRevoked')
            : t('dealers.fleet.until', { time: format.dateTime(entry.expiresAt) })}
        </p>
        <ButtonLink
          to={paths.sprinklers.link()}
          variant="secondary"
          aria-label={t('dealers.fleet.machinesOf', { farm: entry.farm.name })}
          onClick={() => switchTo(entry.farm.id)}
        >
          {t('dealers.fleet.farmMachines')}
        </ButtonLink>
      </div>
    </Card>
  );
}

/** The farms granted to the user's dealers, side by side, by name. */
export function FleetCards() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { data: fleet, isPending } = useFleet();
  if (isPending) return <p className="text-ink-muted">{t('dealers.fleet.loading')}</p>;
  if (!fleet) return <p className="text-ink-muted">{t('dealers.fleet.loadFailed')}</p>;
  if (fleet.length === 0) {
    return (
      <Card>
        <p className="text-ink-muted">{t('dealers.fleet.empty')}</p>
      </Card>
    );
  }
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const sorted = [...fleet].sort(
    (a, b) => collator.compare(a.farm.name, b.farm.name) || collator.compare(a.dealerName, b.dealerName),
  );
  return (
    <div className="grid items-start gap-6 md:grid-cols-2">
      {sorted.map((entry) => (
        <FleetCard key={`${entry.farm.id} ${entry.dealerName}`} entry={entry} />
      ))}
    </div>
  );
}
