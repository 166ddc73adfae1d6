import type { WaterBalanceSeason } from '@pivot/contracts';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWaterBalanceSeason } from '../api/get-water-balance-season';
import { Card } from '@/ui/card';

/** The chart's code comes when a season is there to draw: the machine page's weight is watched (docs/benchmarks.md). */
const SeasonChart = lazy(() => import('./season-chart').then((module) => ({ default: module.SeasonChart })));

/** The chart's height while its code comes, px, so that the page below does not jump. */
const CHART_PLACEHOLDER_HEIGHT = 266;

/**
 * The season at a glance (issue 34): a crop zone's or a sector's days since emergence and on to
 * its next irrigation, one chosen at a time.
 */
export function SeasonChartCard({ sprinklerId }: { sprinklerId: number }) {
  const { t } = useTranslation();
  const { data: season, isPending } = useWaterBalanceSeason(sprinklerId);
  return (
    <Card aria-labelledby="season-chart-title" className="flex flex-col gap-3">
      <h2 id="season-chart-title" className="text-lg font-semibold">
        {t('advice.season.title')}
      </h2>
      {isPending ? (
        <p className="text-sm text-ink-muted">{t('advice.season.loading')}</p>
      ) : season ? (
        <SeasonChooser season={season} />
      ) : (
        <p className="text-sm text-ink-muted">{t('advice.season.failed')}</p>
      )}
    </Card>
  );
}

export function SeasonChooser({ season }: { season: WaterBalanceSeason }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState('zone:0');
  if (season.reason) return <p className="text-sm">{t(`advice.balance.reasons.${season.reason}`)}</p>;
  const [kind, position] = chosen.split(':') as ['zone' | 'sector', string];
  const area = (kind === 'zone' ? season.zones : season.sectors)[Number(position)] ?? season.zones[0];
  if (!area) return null;
  return (
    <div className="flex flex-col gap-3">
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-ink-muted">{t('advice.season.chooser')}</span>
        <select
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className="h-9 max-w-full min-w-0 rounded-lg border border-line bg-surface px-2 text-sm"
        >
          <optgroup label={t('advice.balance.zones')}>
            {season.zones.map((zone, index) => (
              <option key={zone.name} value={`zone:${index}`}>
                {zone.name}
              </option>
            ))}
          </optgroup>
          {season.sectors.length > 0 && (
            <optgroup label={t('advice.balance.sectors')}>
              {season.sectors.map((sector, index) => (
                <option key={sector.name} value={`sector:${index}`}>
                  {sector.name}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      <Suspense fallback={<div style={{ height: CHART_PLACEHOLDER_HEIGHT }} />}>
        <SeasonChart area={area} />
      </Suspense>
      <Legend />
      <p className="text-sm text-ink-muted">{t('advice.season.hint')}</p>
      <p className="text-sm text-ink-muted">{t('advice.balance.terms')}</p>
    </div>
  );
}

function Legend() {
  const { t } = useTranslation();
  const items: [string, string][] = [
    ['h-0.5 w-4 bg-water', t('advice.season.legend.deficit')],
    ['h-0 w-4 border-t-2 border-dashed border-water opacity-70', t('advice.season.legend.forecast')],
    ['h-0 w-4 border-t-2 border-dashed border-warning', 'RAW'],
    ['h-0.5 w-4 bg-ink-muted', 'TAW'],
    ['h-3 w-2 bg-info', t('advice.season.legend.rain')],
    ['h-3 w-2 bg-primary', t('advice.season.legend.water')],
  ];
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-muted">
      {items.map(([swatch, label]) => (
        <li key={label} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block ${swatch}`} />
          {label}
        </li>
      ))}
    </ul>
  );
}
