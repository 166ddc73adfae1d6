import type { WeatherStation } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { numberFormat } from '@/i18n/number-format';

/**
 * A weather station's readings (docs/product.md#screens): temperature, humidity, wind, rainfall today and over
 * 7 days, ETP 7 days; while the station has less than a week of history, the ETP of the days
 * there are, and how many ("12,3 mm (3 dni)").
 */
export function WeatherStationFacts({ station }: { station: WeatherStation }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const one = numberFormat(locale, { maximumFractionDigits: 1 });
  const value = (number: number | undefined, unit: string) =>
    number === undefined ? '—' : `${one.format(number)} ${unit}`;
  const facts = [
    ['temperature', value(station.temperature, '°C')],
    ['humidity', value(station.humidity, '%')],
    ['wind', value(station.wind, t('sprinklers.units.windSpeed'))],
    ['rainfall', value(station.rainfall, t('sprinklers.units.millimetres'))],
    ['rainfall7d', value(station.rainfall_7d, t('sprinklers.units.millimetres'))],
    [
      'etp7d',
      station.etp_7d !== undefined && station.etp_days !== undefined && station.etp_days < 7
        ? t('weather.overDays', {
            value: value(station.etp_7d, t('sprinklers.units.millimetres')),
            count: station.etp_days,
          })
        : value(station.etp_7d, t('sprinklers.units.millimetres')),
    ],
  ] as const;
  return (
    <div className="flex flex-col gap-1">
      <p className="font-semibold">{t('weather.station', { id: station.id })}</p>
      <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-0.5 text-sm">
        {facts.map(([name, text]) => (
          <div key={name} className="contents">
            <dt className="text-ink-muted">{t(`weather.${name}`)}</dt>
            <dd className="text-right font-medium tabular-nums">{text}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
