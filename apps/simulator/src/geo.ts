import { EARTH_RADIUS_M, type Position } from '@pivot/contracts';

/**
 * Plane geometry around a point: over the few kilometres of a farm an equirectangular
 * projection is accurate to within a metre, which is all a simulator needs.
 */
export type LatLng = { lat: number; lng: number };

const RADIANS = Math.PI / 180;
const COORDINATE_DECIMALS = 1e7;

/** An angle in degrees brought into [0, 360). */
export function normaliseAngle(degrees: number): number {
  const angle = degrees % 360;
  return angle < 0 ? angle + 360 : angle;
}

/** The point at a bearing (degrees clockwise from north) and distance (m) from the origin. */
export function latLngAt(origin: LatLng, bearing: number, distance: number): LatLng {
  const north = distance * Math.cos(bearing * RADIANS);
  const east = distance * Math.sin(bearing * RADIANS);
  return {
    lat: roundCoordinate(origin.lat + north / EARTH_RADIUS_M / RADIANS),
    lng: roundCoordinate(origin.lng + east / (EARTH_RADIUS_M * Math.cos(origin.lat * RADIANS)) / RADIANS),
  };
}

/** The same point as a GeoJSON [lng, lat] position. */
export function positionAt(origin: LatLng, bearing: number, distance: number): Position {
  const { lat, lng } = latLngAt(origin, bearing, distance);
  return [lng, lat];
}

/** Bearing (degrees clockwise from north) and distance (m) from the origin to a [lng, lat] position. */
export function bearingAndDistance(origin: LatLng, [lng, lat]: Position): { bearing: number; distance: number } {
  const north = (lat - origin.lat) * RADIANS * EARTH_RADIUS_M;
  const east = (lng - origin.lng) * RADIANS * EARTH_RADIUS_M * Math.cos(origin.lat * RADIANS);
  return { bearing: normaliseAngle(Math.atan2(east, north) / RADIANS), distance: Math.hypot(north, east) };
}

/** Even-odd ray casting on [lng, lat]: inside the outer ring and outside every hole. */
export function polygonContains(rings: readonly (readonly Position[])[], point: Position): boolean {
  const [outer, ...holes] = rings;
  return outer !== undefined && ringContains(outer, point) && !holes.some((hole) => ringContains(hole, point));
}

function ringContains(ring: readonly Position[], [x, y]: Position): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

const ARC_STEP_DEGREES = 5;

/**
 * A closed ring for the pie wedge of a circle from one bearing clockwise to another; a span of
 * 360° gives the whole disc.
 */
export function wedgeRing(centre: LatLng, radius: number, fromBearing: number, toBearing: number): Position[] {
  const span = normaliseAngle(toBearing - fromBearing) || 360;
  const steps = Math.max(2, Math.ceil(span / ARC_STEP_DEGREES));
  const arc = Array.from({ length: steps + 1 }, (_, step) =>
    positionAt(centre, fromBearing + (span * step) / steps, radius),
  );
  if (span === 360) return [...arc.slice(0, -1), arc[0]!];
  const apex: Position = [roundCoordinate(centre.lng), roundCoordinate(centre.lat)];
  return [apex, ...arc, apex];
}

function roundCoordinate(degrees: number): number {
  return Math.round(degrees * COORDINATE_DECIMALS) / COORDINATE_DECIMALS;
}
