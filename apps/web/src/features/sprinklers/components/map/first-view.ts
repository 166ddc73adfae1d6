import type { SprinklerDetail } from '@pivot/contracts';
import { type LatLngBounds, geoJSON, latLng, latLngBounds } from 'leaflet';
import { toLeafletGeoJson } from '@/ui/map/leaflet-geojson';

/** Framed when a machine has no field drawn yet: a kilometre around its centre. */
const UNDRAWN_FIELD_SIZE_M = 1000;

/**
 * What the machine map frames when it opens: the field and its crops as the administrator drew
 * them (areaMap), widened to take in every weather station and soil probe the map shows, so
 * none of them lies outside the first view.
 */
export function firstViewBounds(
  sprinkler: Pick<SprinklerDetail, 'areaMap' | 'lat' | 'lng' | 'weather_stations' | 'humidity_sensors'>,
): LatLngBounds {
  const area = geoJSON(toLeafletGeoJson(sprinkler.areaMap));
  const drawn = area.getLayers().length > 0 ? area.getBounds() : null;
  const bounds = drawn?.isValid()
    ? latLngBounds(drawn.getSouthWest(), drawn.getNorthEast())
    : latLng(sprinkler.lat, sprinkler.lng).toBounds(UNDRAWN_FIELD_SIZE_M);
  for (const station of sprinkler.weather_stations) bounds.extend([station.lat, station.lng]);
  for (const [lat, lng] of sprinkler.humidity_sensors) bounds.extend([lat, lng]);
  return bounds;
}
