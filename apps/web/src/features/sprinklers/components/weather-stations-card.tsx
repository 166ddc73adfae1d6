import type { WeatherStation } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { Card } from '@/ui/card';
import { WeatherStationFacts } from './weather-station-facts';

/** The stations near the machine, readable without opening their markers on the map. */
export function WeatherStationsCard({ stations }: { stations: readonly WeatherStation[] }) {
  const { t } = useTranslation();
  return (
    <Card aria-labelledby="weather-title" className="flex flex-col gap-3">
      <h2 id="weather-title" className="text-lg font-semibold">
        {t('sprinklers.weather.title')}
      </h2>
      {stations.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('sprinklers.weather.none')}</p>
      ) : (
        stations.map((station) => <WeatherStationFacts key={station.id} station={station} />)
      )}
    </Card>
  );
}
