import 'leaflet/dist/leaflet.css';
import type { LatLngBoundsExpression } from 'leaflet';
import type { ReactNode } from 'react';
import { MapContainer, TileLayer } from 'react-leaflet';
import { env } from '@/config/env';

export type FieldMapProps = {
  /** What the map frames when it opens: a field's bounds. */
  bounds: LatLngBoundsExpression;
  /** Names the map for screen readers. */
  label: string;
  className?: string;
  children?: ReactNode;
};

/**
 * A Leaflet map over the configured tiles. Without a connection to the tile server (a farm's
 * patchy network) the tiles stay blank, and everything drawn on the map still shows over a
 * plain field colour. The map isolates its stacking: Leaflet lifts its panes and controls to
 * z-index 400–1000, which would otherwise draw them over the sticky header scrolled above.
 */
export function FieldMap({ bounds, label, className = '', children }: FieldMapProps) {
  return (
    <div
      role="region"
      aria-label={label}
      className={`field-map relative isolate overflow-hidden rounded-xl border border-line ${className}`}
    >
      <MapContainer bounds={bounds} boundsOptions={{ padding: [16, 16] }} className="size-full" zoomSnap={0.25}>
        <TileLayer url={env.mapTileUrl} attribution={env.mapTileAttribution} maxZoom={19} />
        {children}
      </MapContainer>
    </div>
  );
}
