import type { WeatherStation } from '@pivot/contracts';
import { CircleMarker, Popup } from 'react-leaflet';
import { WeatherStationFacts } from '../weather-station-facts';

/** Each weather station as a marker; its readings open on a click or a tap. */
export function WeatherStationMarkers({ stations }: { stations: readonly WeatherStation[] }) {
  return stations.map((station) => (
    <CircleMarker
      key={station.id}
      center={[station.lat, station.lng]}
      radius={9}
      pathOptions={{ color: '#1e3a8a', weight: 2, fillColor: '#fde047', fillOpacity: 1 }}
    >
      <Popup>
        <WeatherStationFacts station={station} />
      </Popup>
    </CircleMarker>
  ));
}
