/**
 * The coordinate systems a map file may name (GeoJSON's old `crs` member; a shapefile's `.prj`
 * is read by shpjs itself), and reprojection of the projected ones to [longitude, latitude] with
 * proj4, loaded only when such a file comes. Polish fields are mostly drawn in PUWG 1992
 * (EPSG:2180) or a zone of PUWG 2000; GPS tools and neighbours use UTM.
 */

/** A projected system the import converts: its label for messages and its proj4 definition. */
type ProjectedSystem = { label: string; definition: string };

const puwg2000 = (zone: number, centralMeridian: number): ProjectedSystem => ({
  label: `PUWG 2000, zone ${zone}`,
  definition: `+proj=tmerc +lat_0=0 +lon_0=${centralMeridian} +k=0.999923 +x_0=${zone * 1_000_000 + 500_000} +y_0=0 +ellps=GRS80 +units=m +no_defs`,
});
const utm = (datum: 'ETRS89' | 'WGS 84', zone: number): ProjectedSystem => ({
  label: `${datum} / UTM ${zone}N`,
  definition: `+proj=utm +zone=${zone} ${datum === 'WGS 84' ? '+datum=WGS84' : '+ellps=GRS80'} +units=m +no_defs`,
});

/** By EPSG code. Easting first, northing second, as GIS files write them whatever the EPSG axis order. */
const PROJECTED_SYSTEMS: Record<string, ProjectedSystem> = {
  '2180': {
    label: 'PUWG 1992',
    definition: '+proj=tmerc +lat_0=0 +lon_0=19 +k=0.9993 +x_0=500000 +y_0=-5300000 +ellps=GRS80 +units=m +no_defs',
  },
  '2176': puwg2000(5, 15),
  '2177': puwg2000(6, 18),
  '2178': puwg2000(7, 21),
  '2179': puwg2000(8, 24),
  '25833': utm('ETRS89', 33),
  '25834': utm('ETRS89', 34),
  '32633': utm('WGS 84', 33),
  '32634': utm('WGS 84', 34),
  '3857': {
    label: 'Web Mercator',
    definition:
      '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs',
  },
};

/** Degrees of longitude and latitude already: WGS 84, ETRS89 (the same to a metre in Europe), CRS84. */
const GEOGRAPHIC_CODES = new Set(['4326', '4258', '4171', 'CRS84']);

export type CoordinateSystem =
  { kind: 'geographic' } | { kind: 'projected'; name: string; definition: string } | { kind: 'unknown'; name: string };

/** The system a GeoJSON's `crs` member names ("EPSG:2180", "urn:ogc:def:crs:EPSG::2180", …); null without one. */
export function namedSystem(geoJson: unknown): CoordinateSystem | null {
  if (typeof geoJson !== 'object' || geoJson === null || !('crs' in geoJson)) return null;
  const crs = geoJson.crs as { properties?: { name?: unknown } } | null;
  const name = crs?.properties?.name;
  if (typeof name !== 'string') return null;
  const code = /EPSG:+(?:[\d.]*:)?(\d+)$/i.exec(name.trim())?.[1] ?? (/CRS84$/i.test(name.trim()) ? 'CRS84' : null);
  if (code && GEOGRAPHIC_CODES.has(code)) return { kind: 'geographic' };
  const system = code ? PROJECTED_SYSTEMS[code] : undefined;
  if (code && system)
    return { kind: 'projected', name: `EPSG:${code} (${system.label})`, definition: system.definition };
  return { kind: 'unknown', name: code && code !== 'CRS84' ? `EPSG:${code}` : name.trim().slice(0, 80) };
}

/** Every `coordinates` in the object, positions converted; the rest as it was, but no `crs` or `bbox`. */
function mapCoordinates(value: unknown, convert: (position: number[]) => number[]): unknown {
  const positions = (item: unknown): unknown =>
    Array.isArray(item) ? (typeof item[0] === 'number' ? convert(item as number[]) : item.map(positions)) : item;
  if (Array.isArray(value)) return value.map((item) => mapCoordinates(item, convert));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'crs' && key !== 'bbox')
      .map(([key, item]) => [key, key === 'coordinates' ? positions(item) : mapCoordinates(item, convert)]),
  );
}

/** The GeoJSON reprojected from the system to [longitude, latitude]. */
export async function toDegrees(geoJson: unknown, definition: string): Promise<unknown> {
  const { default: proj4 } = await import('proj4');
  const converter = proj4(definition, 'WGS84');
  return mapCoordinates(geoJson, (position) => {
    const [x, y] = position;
    if (typeof x !== 'number' || typeof y !== 'number') return position;
    return converter.forward([x, y]);
  });
}
