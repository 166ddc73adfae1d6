import type { SprinklerDetail } from '@pivot/contracts';
import { CircleMarker, Polyline } from 'react-leaflet';

/** The arm where the machine last reported it, from the pivot centre to the last tower. */
export function ArmLine({ sprinkler }: { sprinkler: SprinklerDetail }) {
  const centre: [number, number] = [sprinkler.lat, sprinkler.lng];
  const line = sprinkler.currentPosition?.geometry.coordinates.map(([lng, lat]) => [lat, lng] as [number, number]);
  return (
    <>
      {line && (
        <Polyline positions={line} pathOptions={{ color: '#f59e0b', weight: 5, opacity: 0.95 }} interactive={false} />
      )}
      <CircleMarker
        center={centre}
        radius={6}
        pathOptions={{ color: '#78350f', fillColor: '#f59e0b', fillOpacity: 1, weight: 2 }}
        interactive={false}
      />
    </>
  );
}
