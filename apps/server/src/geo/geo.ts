import { EARTH_RADIUS_M, type LineString } from '@pivot/contracts';

/**
 * The arm as a line from the pivot centre to its end, for a heading in degrees clockwise from
 * north. Over a few hundred metres a flat-earth offset is accurate to centimetres.
 */
export function armLine(centre: LatLng, angleDegrees: number, lengthM: number): LineString {
  const heading = (angleDegrees * Math.PI) / 180;
  const north = lengthM * Math.cos(heading);
  const east = lengthM * Math.sin(heading);
  const lat = centre.lat + (north / EARTH_RADIUS_M) * (180 / Math.PI);
  const lng = centre.lng + (east / (EARTH_RADIUS_M * Math.cos((centre.lat * Math.PI) / 180))) * (180 / Math.PI);
  return {
    type: 'LineString',
    coordinates: [
      [centre.lng, centre.lat],
      [round(lng), round(lat)],
    ],
  };
}

/** Seven decimals of a degree are about a centimetre. */
function round(degrees: number): number {
  return Math.round(degrees * 1e7) / 1e7;
}

export type LatLng = { lat: number; lng: number };

/** Great-circle distance in metres (haversine). */
export function distanceM(a: LatLng, b: LatLng): number {
  const toRadians = Math.PI / 180;
  const dLat = (b.lat - a.lat) * toRadians;
  const dLng = (b.lng - a.lng) * toRadians;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * toRadians) * Math.cos(b.lat * toRadians) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A latitude/longitude box that holds the circle of the given radius around the centre. */
export function boundingBox(centre: LatLng, radiusM: number) {
  const latDelta = (radiusM / EARTH_RADIUS_M) * (180 / Math.PI);
  const lngDelta = latDelta / Math.max(0.01, Math.cos((centre.lat * Math.PI) / 180));
  return {
    minLat: centre.lat - latDelta,
    maxLat: centre.lat + latDelta,
    minLng: centre.lng - lngDelta,
    maxLng: centre.lng + lngDelta,
  };
}
