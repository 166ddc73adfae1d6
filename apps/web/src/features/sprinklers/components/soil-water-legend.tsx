import type { WaterBalance } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDottedDay } from '@/i18n/use-dotted-day';
import { SOIL_WATER_CLASSES } from './map/soil-water-scale';

/**
 * The Soil water layer's legend: the classes of depletion as a share of TAW on one bar, with a
 * line where each zone's RAW lies (water is due beyond it), and the day the balance describes.
 * `balance` is undefined while it is being read (the page asks for it once the layer is shown),
 * null when the machine has none.
 */
export function SoilWaterLegend({ balance }: { balance: WaterBalance | null | undefined }) {
  const { t } = useTranslation();
  const dottedDay = useDottedDay();
  if (balance === undefined) {
    return (
      <p role="status" className="rounded-lg bg-surface-muted p-3 text-sm text-ink-muted">
        {t('soilWater.loading')}
      </p>
    );
  }
  if (!balance || balance.cells.length === 0) {
    return <p className="rounded-lg bg-surface-muted p-3 text-sm text-ink-muted">{t('soilWater.none')}</p>;
  }
  const lines = balance.zones
    .filter((zone) => zone.taw > 0)
    .map((zone) => ({ name: zone.name, share: Math.round((zone.raw / zone.taw) * 100) }));
  const single = new Set(lines.map((line) => line.share)).size === 1;
  return (
    <div className="flex flex-col gap-2 rounded-lg bg-surface-muted p-3 text-sm">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold">{t('soilWater.title')}</span>
        <span className="text-ink-muted">{t('soilWater.date', { date: dottedDay(balance.date) })}</span>
      </div>
      <figure aria-label={t('soilWater.legend')} className="flex flex-col gap-1">
        <div className="relative flex h-4 overflow-visible rounded-sm">
          {SOIL_WATER_CLASSES.map((soilClass) => (
            <span key={soilClass.color} className="h-full flex-1" style={{ backgroundColor: soilClass.color }} />
          ))}
          {lines.slice(0, single ? 1 : lines.length).map((line) => (
            <span
              key={line.name}
              className="absolute -top-1 -bottom-1 w-0.5 bg-ink"
              style={{ left: `${line.share}%` }}
              aria-hidden
            />
          ))}
        </div>
        <div className="flex justify-between text-xs text-ink-muted tabular-nums">
          <span>{t('soilWater.wet')}</span>
          <span>{t('soilWater.dry')}</span>
        </div>
        <figcaption className="flex flex-col text-xs">
          {single ? (
            <span>{t('soilWater.raw', { share: lines[0]?.share ?? 0 })}</span>
          ) : (
            lines.map((line) => (
              <span key={line.name}>{t('soilWater.rawOf', { name: line.name, share: line.share })}</span>
            ))
          )}
        </figcaption>
      </figure>
    </div>
  );
}
