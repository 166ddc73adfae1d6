import {
  type PolygonProblem,
  type Position,
  type ProgramData,
  ProgramDataSchema,
  type Sector,
  polygonProblem,
} from '@pivot/contracts';
import { namedSystem, toDegrees } from './coordinate-systems';
import { parseDecimal } from '@/lib/decimal';

/**
 * Importing a map file into a program (docs/product.md, #states and #errors): GeoJSON (.geojson, .json), KML (.kml) or a
 * zipped shapefile (.zip). Every polygon becomes a sector, every part of a multipolygon a sector
 * of its own. A file that cannot be read, holds no polygon or lacks what a sector needs is
 * refused as a whole ("Incorrect structure of the imported map file"): nothing is half imported.
 *
 * The rules, for files drawn in any GIS tool:
 * - name: the feature's `name` property (also `Name`, `NAME`, `nazwa`, `title`, `label`,
 *   `sector`, `sektor`, any case); without one, a numbered default name;
 * - rate (mm): `rate` (also `dose`, `dawka`, `mm`, `rate_mm`, `dose_mm`, any case), a number or a
 *   numeric text ("12.5", "12,5"); a missing or non-numeric rate refuses the file, since a
 *   guessed dose would water wrongly;
 * - positions are [longitude, latitude] (RFC 7946); a shapefile with a .prj is reprojected to
 *   it (shpjs), and so is a GeoJSON whose `crs` names a projected system the import knows (PUWG
 *   1992, PUWG 2000, UTM, Web Mercator: coordinate-systems.ts); a system it does not know is named
 *   in the refusal, and numbers out of the degrees' range without a system are refused as not
 *   degrees; altitudes are dropped, rings are closed where the file left them open;
 * - every polygon must be one a machine can water by (the contract's polygon-validity): the
 *   refusal names the sector and what is wrong with it;
 * - features without a polygon (points, lines: pins and labels) are skipped;
 * - names repeated within the file get " (2)", " (3)", … so that each sector keeps its own.
 */

export type MapFileFormat = 'geojson' | 'kml' | 'shapefile';

export type MapImportProblem =
  /** Not a file of a supported kind (by its extension). */
  | 'format'
  /** Not parseable as its kind (broken JSON, XML or zip). */
  | 'unreadable'
  /** Parsed, but holds no polygon. */
  | 'noPolygons'
  /** A polygon without a rate, or with one that is not a number. */
  | 'rate'
  /** Numbers out of the degrees' range, and no system named: a projected file without its .prj. */
  | 'projected'
  /** A GeoJSON naming a coordinate system the import cannot convert. */
  | 'unknownSystem'
  /** A polygon that crosses itself, has no area, a hole outside or too many corners. */
  | 'shape'
  /** Anything else that does not make valid sectors: coordinates, sizes, counts. */
  | 'structure';

/** What the refusal names: the system, a position as the file wrote it, the sector and its shape's problem. */
export type MapImportDetail = { system?: string; sample?: string; sector?: string; shape?: PolygonProblem };

export class MapImportError extends Error {
  constructor(
    readonly problem: MapImportProblem,
    readonly detail: MapImportDetail = {},
  ) {
    super(`Incorrect structure of the imported map file (${problem})`);
    this.name = 'MapImportError';
  }
}

/** What is read of a file: a browser File satisfies it. */
export type MapFile = { name: string; text: () => Promise<string>; arrayBuffer: () => Promise<ArrayBuffer> };

export type MapImportOptions = {
  /** The name of the n-th sector that has none in the file (1-based). */
  defaultName: (number: number) => string;
};

/** The extensions the file picker offers. */
export const MAP_FILE_ACCEPT = '.geojson,.json,.kml,.zip';

export function mapFileFormat(fileName: string): MapFileFormat | null {
  const extension = fileName.toLowerCase().split('.').pop();
  if (extension === 'geojson' || extension === 'json') return 'geojson';
  if (extension === 'kml') return 'kml';
  if (extension === 'zip') return 'shapefile';
  return null;
}

/** KML → GeoJSON with @tmcw/togeojson on the browser's DOMParser (loaded only when a KML comes). */
async function kmlToGeoJson(text: string): Promise<unknown> {
  const document = new DOMParser().parseFromString(text, 'application/xml');
  if (document.getElementsByTagName('parsererror').length > 0 || document.documentElement.localName !== 'kml') {
    throw new MapImportError('unreadable');
  }
  const { kml } = await import('@tmcw/togeojson');
  return kml(document);
}

/** A GeoJSON in degrees: reprojected when its `crs` names a projected system, refused when one unknown. */
async function inDegrees(geoJson: unknown): Promise<unknown> {
  const system = namedSystem(geoJson);
  if (system?.kind === 'unknown') throw new MapImportError('unknownSystem', { system: system.name });
  return system?.kind === 'projected' ? toDegrees(geoJson, system.definition) : geoJson;
}

/** A zipped shapefile → GeoJSON with shpjs (loaded only when a zip comes); several layers are merged. */
async function shapefileToGeoJson(zip: ArrayBuffer): Promise<unknown> {
  const { default: shp } = await import('shpjs');
  const layers = await shp(zip);
  const list = Array.isArray(layers) ? layers : [layers];
  return { type: 'FeatureCollection', features: list.flatMap((layer) => layer.features) };
}

/** Reads a map file into a program's sectors; throws MapImportError when it cannot. */
export async function readMapFile(file: MapFile, options: MapImportOptions): Promise<ProgramData> {
  const format = mapFileFormat(file.name);
  if (!format) throw new MapImportError('format');
  let geoJson: unknown;
  try {
    if (format === 'geojson') geoJson = await inDegrees(JSON.parse(await file.text()));
    else if (format === 'kml') geoJson = await kmlToGeoJson(await file.text());
    else geoJson = await shapefileToGeoJson(await file.arrayBuffer());
  } catch (error) {
    if (error instanceof MapImportError) throw error;
    throw new MapImportError('unreadable');
  }
  return toProgramData(geoJson, options);
}

type LooseFeature = { geometry: unknown; properties: Record<string, unknown> };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The features of any GeoJSON object: a collection's, a feature itself, or a bare geometry. */
function featuresOf(geoJson: unknown): LooseFeature[] {
  if (!isRecord(geoJson)) throw new MapImportError('structure');
  const propertiesOf = (feature: Record<string, unknown>) => (isRecord(feature.properties) ? feature.properties : {});
  if (geoJson.type === 'FeatureCollection') {
    if (!Array.isArray(geoJson.features)) throw new MapImportError('structure');
    return geoJson.features.map((feature) => {
      if (!isRecord(feature) || feature.type !== 'Feature') throw new MapImportError('structure');
      return { geometry: feature.geometry, properties: propertiesOf(feature) };
    });
  }
  if (geoJson.type === 'Feature') return [{ geometry: geoJson.geometry, properties: propertiesOf(geoJson) }];
  if (typeof geoJson.type === 'string') return [{ geometry: geoJson, properties: {} }];
  throw new MapImportError('structure');
}

/** The polygons of a geometry, each as its rings: a multipolygon's parts, a collection's polygons. */
function polygonsOf(geometry: unknown): unknown[][] {
  if (!isRecord(geometry)) return [];
  if (geometry.type === 'Polygon') return [asArray(geometry.coordinates)];
  if (geometry.type === 'MultiPolygon') return asArray(geometry.coordinates).map(asArray);
  if (geometry.type === 'GeometryCollection') return asArray(geometry.geometries).flatMap(polygonsOf);
  return [];
}

function asArray(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new MapImportError('structure');
  return value;
}

function position(value: unknown): Position {
  const [longitude, latitude] = asArray(value);
  if (typeof longitude !== 'number' || typeof latitude !== 'number') throw new MapImportError('structure');
  if (!Number.isFinite(longitude) || !Number.isFinite(latitude)) throw new MapImportError('structure');
  if (!(Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90)) {
    // Metres of a projected system, such as PUWG 1992's 357000, 5778000.
    const sample = [longitude, latitude].map((value) => String(Math.round(value * 100) / 100)).join(', ');
    throw new MapImportError('projected', { sample });
  }
  return [longitude, latitude];
}

/** A closed ring of [longitude, latitude] with at least three distinct corners. */
function closedRing(value: unknown): Position[] {
  const ring = asArray(value).map(position);
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first && last && (first[0] !== last[0] || first[1] !== last[1])) ring.push([first[0], first[1]]);
  if (ring.length < 4) throw new MapImportError('structure');
  return ring;
}

const NAME_KEYS = ['name', 'nazwa', 'title', 'label', 'sector', 'sektor'];
const RATE_KEYS = ['rate', 'dose', 'dawka', 'mm', 'rate_mm', 'dose_mm'];

/** A property under any of these names, whatever their case ("name", "Name", "NAME"). */
function property(properties: Record<string, unknown>, keys: readonly string[]): unknown {
  const byLowerCase = new Map(Object.entries(properties).map(([key, value]) => [key.trim().toLowerCase(), value]));
  for (const key of keys) {
    const value = byLowerCase.get(key);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

function nameOf(properties: Record<string, unknown>): string | null {
  const value = property(properties, NAME_KEYS);
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const name = String(value).trim().slice(0, 100).trim();
  return name || null;
}

/** A rate of a number or a numeric text, with a decimal point or comma (shapefiles often carry text). */
export function parseRate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' ? parseDecimal(value) : null;
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let number = 2; taken.has(candidate); number += 1) candidate = `${name.slice(0, 94)} (${number})`;
  taken.add(candidate);
  return candidate;
}

/** Any GeoJSON object → a program's sectors, by the rules above; throws MapImportError. */
export function toProgramData(geoJson: unknown, { defaultName }: MapImportOptions): ProgramData {
  const sectors: Sector[] = [];
  const taken = new Set<string>();
  let unnamed = 0;
  for (const feature of featuresOf(geoJson)) {
    const polygons = polygonsOf(feature.geometry);
    if (polygons.length === 0) continue;
    const rate = parseRate(property(feature.properties, RATE_KEYS));
    if (rate === null) throw new MapImportError('rate');
    const name = nameOf(feature.properties) ?? defaultName(++unnamed);
    polygons.forEach((rings, part) => {
      const partName = uniqueName(polygons.length > 1 ? `${name.slice(0, 94)} (${part + 1})` : name, taken);
      const coordinates = rings.map(closedRing);
      const shape = coordinates.length > 0 ? polygonProblem(coordinates) : null;
      if (shape) throw new MapImportError('shape', { sector: partName, shape });
      sectors.push({
        type: 'Feature',
        properties: { name: partName, rate },
        geometry: { type: 'Polygon', coordinates },
      });
    });
  }
  if (sectors.length === 0) throw new MapImportError('noPolygons');
  const parsed = ProgramDataSchema.safeParse({ type: 'FeatureCollection', features: sectors });
  if (!parsed.success) throw new MapImportError('structure');
  return parsed.data;
}
