import type { WeatherStation } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { Card } from '@/ui/card';
import { WeatherStationDays } from './weather-station-days';
import { WeatherStationFacts } from './weather-station-facts';

/** The stations near the machine, readable without opening their markers on the map, each with its last days. */
export function WeatherStationsCard({ stations }: { stations: readonly WeatherStation[] }) {
  const { t } = useTranslation();
  return (
    <Card aria-labelledby="weather-title" className="flex flex-col gap-3">
      <h2 id="weather-title" className="text-lg font-semibold">
        {t('weather.title')}
      </h2>
      {stations.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('weather.none')}</p>
      ) : (
        stations.map((station) => (
          <div key={station.id} className="flex flex-col gap-2">
            <WeatherStationFacts station={station} />
            <WeatherStationDays stationId={station.id} />
          </div>
        ))
      )}
    </Card>
  );
}
