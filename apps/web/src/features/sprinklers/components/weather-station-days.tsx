import type { StationDay } from '@pivot/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDottedDay } from '@/i18n/use-dotted-day';
import { useLocale } from '@/i18n/use-locale';
import { numberFormat } from '@/i18n/number-format';
import { useRecentStationDays } from '../api/get-station-days';

/** The table's figures after the day, in order: each header's text key and what it shows of a day. */
const COLUMNS = [
  { key: 'et0', figures: (day: StationDay) => [day.et0] },
  { key: 'rain', figures: (day: StationDay) => [day.rain] },
  { key: 'temperature', figures: (day: StationDay) => [day.minTemperature, day.maxTemperature] },
  { key: 'humidity', figures: (day: StationDay) => [day.minHumidity, day.maxHumidity] },
  { key: 'wind', figures: (day: StationDay) => [day.wind] },
  { key: 'readings', figures: (day: StationDay) => [day.readings] },
] as const;

/**
 * The station's last complete days as the soil-water balance takes them (docs/advice.md, "Weather
 * days"), so that a farmer can check the advice's weather. Nothing while loading or when the
 * station reported none of those days.
 */
export function WeatherStationDays({ stationId }: { stationId: string }) {
  const { data } = useRecentStationDays(stationId);
  if (!data || data.days.length === 0) return null;
  return <StationDaysTable days={data.days} />;
}

/** Each day's ET0 and rain, the temperatures, humidities and wind ET0 came from, and how many readings the day is built from. */
export function StationDaysTable({ days }: { days: readonly StationDay[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const dottedDay = useDottedDay();
  const titleId = useId();
  const one = numberFormat(locale, { maximumFractionDigits: 1 });
  const show = (figures: readonly (number | null)[]) =>
    figures.map((figure) => (figure === null ? '—' : one.format(figure))).join('–');
  return (
    <section className="flex flex-col gap-1">
      <h3 id={titleId} className="text-sm font-semibold">
        {t('weatherDays.title')}
      </h3>
      {/* Focusable so that a keyboard can scroll the columns a narrow screen cuts off. */}
      <div
        className="overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-focus"
        tabIndex={0}
        role="region"
        aria-labelledby={titleId}
      >
        <table className="w-full text-left text-sm" aria-labelledby={titleId}>
          <thead className="text-ink-muted">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t('weatherDays.date')}
              </th>
              {COLUMNS.map(({ key }, index) => (
                <th
                  key={key}
                  scope="col"
                  className={`py-1 text-right font-medium ${index < COLUMNS.length - 1 ? 'pr-3' : ''}`}
                >
                  {t(`weatherDays.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date} className="border-t border-line">
                <th scope="row" className="py-1 pr-3 font-medium tabular-nums">
                  {dottedDay(day.date)}
                </th>
                {COLUMNS.map(({ key, figures }, index) => (
                  <td key={key} className={`py-1 text-right tabular-nums ${index < COLUMNS.length - 1 ? 'pr-3' : ''}`}>
                    {show(figures(day))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
