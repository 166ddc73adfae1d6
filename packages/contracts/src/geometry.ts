/**
 * The earth as every part of the product measures it: a sphere of the mean radius (IUGG), so
 * that the server's grid, the simulator's machines and the web app's maps agree to the metre.
 */
export const EARTH_RADIUS_M = 6_371_008.8;

/** Metres along a meridian per degree of latitude on that sphere (about 111,195 m). */
export const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;

/** A GeoJSON position: [longitude, latitude]. */
type LngLat = readonly number[];

export type LatLng = { lat: number; lng: number };

const RADIANS = Math.PI / 180;
const COORDINATE_DECIMALS = 1e7;

/**
 * The point at a bearing (degrees clockwise from north) and distance (m) from the origin. Over
 * the few kilometres of a farm an equirectangular offset is accurate to within a metre.
 */
export function latLngAt(origin: LatLng, bearing: number, distance: number): LatLng {
  const north = distance * Math.cos(bearing * RADIANS);
  const east = distance * Math.sin(bearing * RADIANS);
  return {
    lat: roundCoordinate(origin.lat + north / EARTH_RADIUS_M / RADIANS),
    lng: roundCoordinate(origin.lng + east / (EARTH_RADIUS_M * Math.cos(origin.lat * RADIANS)) / RADIANS),
  };
}

/** The same point as a GeoJSON [lng, lat] position. */
export function positionAt(origin: LatLng, bearing: number, distance: number): [number, number] {
  const { lat, lng } = latLngAt(origin, bearing, distance);
  return [lng, lat];
}

/** Even-odd ray casting on [lng, lat]: inside the outer ring and outside every hole. */
export function polygonContains(rings: readonly (readonly LngLat[])[], point: LngLat): boolean {
  const [outer, ...holes] = rings;
  return outer !== undefined && ringContains(outer, point) && !holes.some((hole) => ringContains(hole, point));
}

function ringContains(ring: readonly LngLat[], point: LngLat): boolean {
  const [x, y] = point as [number, number];
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function roundCoordinate(degrees: number): number {
  return Math.round(degrees * COORDINATE_DECIMALS) / COORDINATE_DECIMALS;
}
