import type { GeoJson } from '@pivot/contracts';
import type { GeoJsonObject } from 'geojson';

/**
 * GeoJSON checked by the contracts, as Leaflet's types name it: the same RFC 7946 shapes, but
 * the contracts type a bbox as number[] where @types/geojson wants a tuple.
 */
export function toLeafletGeoJson(
  value: GeoJson | { type: 'FeatureCollection'; features: readonly unknown[] },
): GeoJsonObject {
  return value as GeoJsonObject;
}
