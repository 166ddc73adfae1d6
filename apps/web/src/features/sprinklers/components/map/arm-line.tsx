import type { SprinklerDetail } from '@pivot/contracts';
import { CircleMarker, Polyline } from 'react-leaflet';
import { useMachineOnline } from '@/features/sprinklers/hooks/use-machine-online';

/**
 * The arm where the machine last reported it, from the pivot centre to the last tower: solid
 * while the machine is online, faded and dashed once that is only where it was last known.
 */
export function ArmLine({ sprinkler }: { sprinkler: SprinklerDetail }) {
  const online = useMachineOnline(sprinkler);
  const centre: [number, number] = [sprinkler.lat, sprinkler.lng];
  const line = sprinkler.currentPosition?.geometry.coordinates.map(([lng, lat]) => [lat, lng] as [number, number]);
  return (
    <>
      {line && (
        <Polyline
          positions={line}
          pathOptions={{
            color: '#f59e0b',
            weight: 5,
            opacity: online ? 0.95 : 0.6,
            dashArray: online ? undefined : '10 8',
          }}
          interactive={false}
        />
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
