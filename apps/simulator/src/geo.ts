/**
 * Plane geometry around a point: over the few kilometres of a farm an equirectangular
 * projection is accurate to within a metre, which is all a simulator needs. Where a point lies
 * and whether a sector holds it are the contracts' own, shared with the server.
 */
import { EARTH_RADIUS_M, type LatLng, type Position, positionAt } from '@pivot/contracts';

export { type LatLng, latLngAt, polygonContains, positionAt } from '@pivot/contracts';

const RADIANS = Math.PI / 180;

/** An angle in degrees brought into [0, 360). */
export function normaliseAngle(degrees: number): number {
  const angle = degrees % 360;
  return angle < 0 ? angle + 360 : angle;
}

/** Bearing (degrees clockwise from north) and distance (m) from the origin to a [lng, lat] position. */
export function bearingAndDistance(origin: LatLng, [lng, lat]: Position): { bearing: number; distance: number } {
  const north = (lat - origin.lat) * RADIANS * EARTH_RADIUS_M;
  const east = (lng - origin.lng) * RADIANS * EARTH_RADIUS_M * Math.cos(origin.lat * RADIANS);
  return { bearing: normaliseAngle(Math.atan2(east, north) / RADIANS), distance: Math.hypot(north, east) };
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
  const apex = positionAt(centre, 0, 0);
  return [apex, ...arc, apex];
}
