import type { WeatherStation } from '@pivot/contracts';
import { CircleMarker, Popup } from 'react-leaflet';
import { useWeatherStationFacts } from './use-weather-station-facts';

/**
 * Each weather station as a marker; its readings open on a click or a tap (their code comes a
 * moment after the map: use-weather-station-facts.ts).
 */
export function WeatherStationMarkers({ stations }: { stations: readonly WeatherStation[] }) {
  const WeatherStationFacts = useWeatherStationFacts(stations.length > 0);
  return stations.map((station) => (
    <CircleMarker
      key={station.id}
      center={[station.lat, station.lng]}
      radius={9}
      pathOptions={{ color: '#1e3a8a', weight: 2, fillColor: '#fde047', fillOpacity: 1 }}
    >
      {WeatherStationFacts && (
        <Popup>
          <WeatherStationFacts station={station} />
        </Popup>
      )}
    </CircleMarker>
  ));
}
