/**
 * Reading a prescription file (docs/prescriptions.md): a zipped shapefile, zipped ISOXML task
 * data (prescription-isoxml.ts) or GeoJSON, into its polygons in [longitude, latitude] with each
 * one's attributes. Everything a file could do to the
 * server is refused before the work it would cause: a zip's names and unpacked sizes before it
 * is unpacked, a shapefile's corners before its shapes are read, a coordinate system before any
 * position is converted.
 */
import { MAX_PRESCRIPTION_CORNERS } from '@pivot/contracts';
import { type UnzipFileInfo, unzipSync, zipSync } from 'fflate';
import type { Converter } from 'proj4';
import { AppError } from '../../errors';
import { readIsoxmlPrescription } from './prescription-isoxml';
import type { PrescriptionZone } from './prescription-zone';

/** The most a zip may unpack to: the shapefile parts of a file at the upload's limit, many times over. */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;
const SHAPEFILE_PARTS = ['shp', 'dbf', 'prj'] as const;
type ShapefilePart = (typeof SHAPEFILE_PARTS)[number];
/** GeoJSON's old `crs` member may name WGS 84 itself, in any of these spellings. */
const WGS84_NAMES = /^(urn:ogc:def:crs:ogc:1\.3:crs84|urn:ogc:def:crs:epsg::4326|epsg:4326|crs84)$/i;

/** The shapefile and projection libraries load with the first shapefile read, not with the server. */
async function shapefileReaders() {
  const [{ default: proj4 }, { parseShp }] = await Promise.all([import('proj4'), import('shpjs')]);
  return { proj4, parseShp };
}
type ShapefileReaders = Awaited<ReturnType<typeof shapefileReaders>>;

export async function readPrescriptionFile(fileName: string, bytes: Uint8Array): Promise<PrescriptionZone[]> {
  const ending = fileName.toLowerCase().split('.').pop();
  if (ending === 'zip') return readZip(bytes);
  if (ending === 'geojson' || ending === 'json') return readGeoJson(bytes);
  throw new AppError('prescription_unreadable');
}

/** A zip of task data (its TASKDATA.XML in any folder) or of shapefiles. */
async function readZip(bytes: Uint8Array): Promise<PrescriptionZone[]> {
  const files = unzip(bytes);
  const taskData = Object.keys(files).find((name) => baseName(name).toUpperCase() === 'TASKDATA.XML');
  if (taskData === undefined) return readZippedShapefile(files, await shapefileReaders());
  // The task data's files, flat beside TASKDATA.XML and stored, not deflated again: the package
  // unpacks what it is given, and it is given only what was checked here.
  const folder = taskData.slice(0, taskData.length - baseName(taskData).length);
  const taskFiles = Object.entries(files).filter(([name]) => name.startsWith(folder) && isTaskDataPart(name));
  return readIsoxmlPrescription(
    zipSync(Object.fromEntries(taskFiles.map(([name, content]) => [baseName(name).toUpperCase(), content])), {
      level: 0,
    }),
  );
}

const baseName = (name: string) => name.split(/[/\\]/).pop() ?? name;
const isTaskDataPart = (name: string) => /\.(xml|bin)$/i.test(name);

/**
 * A name inside a zip that stays in its folder: not absolute, no drive, no `..` step. Unpacked or
 * not, a zip that names one was made to write where it should not, and is not opened at all.
 */
function staysInFolder(name: string): boolean {
  if (name.startsWith('/') || name.startsWith('\\') || /^[a-z]:/i.test(name)) return false;
  return !name.split(/[/\\]/).includes('..');
}

function shapefilePart(name: string): { layer: string; part: ShapefilePart } | null {
  if (name.includes('__MACOSX') || name.endsWith('/')) return null;
  const dot = name.lastIndexOf('.');
  const part = name.slice(dot + 1).toLowerCase();
  return (SHAPEFILE_PARTS as readonly string[]).includes(part)
    ? { layer: name.slice(0, dot), part: part as ShapefilePart }
    : null;
}

/**
 * The zip's shapefile parts and task data files, unpacked. Its names and the sizes its directory
 * gives are checked before anything is unpacked, and the sizes again once unpacked (a directory
 * may understate them).
 */
function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  let unpacked = 0;
  const wanted = (file: UnzipFileInfo) => {
    if (!staysInFolder(file.name)) throw new AppError('prescription_unsafe_zip');
    if (shapefilePart(file.name) === null && !isTaskDataPart(file.name)) return false;
    unpacked += file.originalSize;
    if (unpacked > MAX_UNPACKED_BYTES) throw new AppError('prescription_unsafe_zip');
    return true;
  };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: wanted });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('prescription_unreadable');
  }
  const total = Object.values(files).reduce((sum, file) => sum + file.length, 0);
  if (total > MAX_UNPACKED_BYTES) throw new AppError('prescription_unsafe_zip');
  return files;
}

function readZippedShapefile(files: Record<string, Uint8Array>, readers: ShapefileReaders): PrescriptionZone[] {
  const layers = new Map<string, Partial<Record<ShapefilePart, Uint8Array>>>();
  for (const [name, content] of Object.entries(files)) {
    const found = shapefilePart(name);
    if (!found) continue;
    const layer = layers.get(found.layer) ?? {};
    layer[found.part] = content;
    layers.set(found.layer, layer);
  }
  const complete = [...layers.values()].filter((layer) => layer.shp && layer.dbf);
  if (complete.length === 0) throw new AppError('prescription_unreadable');
  let corners = 0;
  for (const layer of complete) corners += shapefileCorners(layer.shp!);
  if (corners > MAX_PRESCRIPTION_CORNERS) throw new AppError('prescription_too_many_corners');
  return complete.flatMap((layer) => readShapefileLayer(layer, readers));
}

/**
 * The corners of a shapefile's polygons, read from its records' headers alone (ESRI Shapefile
 * Technical Description, 1998): each record's length and, for a polygon, its point count.
 */
function shapefileCorners(shp: Uint8Array): number {
  const view = new DataView(shp.buffer, shp.byteOffset, shp.byteLength);
  const HEADER_BYTES = 100;
  const RECORD_HEADER_BYTES = 8;
  if (shp.byteLength < HEADER_BYTES || view.getInt32(0) !== 9994) throw new AppError('prescription_unreadable');
  let corners = 0;
  for (let at = HEADER_BYTES; at + RECORD_HEADER_BYTES <= shp.byteLength;) {
    const contentBytes = view.getInt32(at + 4) * 2;
    const content = at + RECORD_HEADER_BYTES;
    if (contentBytes < 4 || content + contentBytes > shp.byteLength) throw new AppError('prescription_unreadable');
    const shapeType = view.getInt32(content, true);
    // Polygon, PolygonZ, PolygonM: a box, then the part and point counts.
    if ((shapeType === 5 || shapeType === 15 || shapeType === 25) && contentBytes >= 44) {
      corners += Math.max(0, view.getInt32(content + 40, true));
      if (corners > MAX_PRESCRIPTION_CORNERS) return corners;
    }
    at = content + contentBytes;
  }
  return corners;
}

type Geometry = { type: string; coordinates?: unknown };
type Feature = { geometry?: Geometry | null; properties?: Record<string, unknown> | null };

/**
 * The .prj's conversion to WGS 84, or null where none is needed. shpjs reads positions
 * unconverted when proj4 cannot read the .prj: refused here instead. A .prj of WGS 84 itself
 * converts every position to itself, at a quarter of the reading's time: left out.
 */
function conversionOf(prj: string | undefined, { proj4 }: ShapefileReaders): string | undefined {
  if (!prj) return undefined;
  let converter: Converter;
  try {
    converter = proj4(prj);
  } catch {
    throw new AppError('prescription_projection');
  }
  const unchanged = [
    [17.2, 52.3],
    [-120.5, -33.9],
  ].every((position) => {
    const [lng, lat] = converter.inverse(position);
    return Math.abs(lng! - position[0]!) < 1e-9 && Math.abs(lat! - position[1]!) < 1e-9;
  });
  return unchanged ? undefined : prj;
}

/**
 * The numeric columns of a dBASE table (types N and F), row by row; an empty value is null.
 * Text columns are not read: a rate is a number, and decoding a grid's every text (parsedbf,
 * shpjs's reader) took 0.8 s of the event loop for 45,000 rows.
 */
function dbfNumbers(dbf: Uint8Array): Record<string, number | null>[] {
  const view = new DataView(dbf.buffer, dbf.byteOffset, dbf.byteLength);
  if (dbf.byteLength < 32) throw new AppError('prescription_unreadable');
  const rowCount = view.getUint32(4, true);
  const headerBytes = view.getUint16(8, true);
  const rowBytes = view.getUint16(10, true);
  const fields: { name: string; offset: number; length: number }[] = [];
  let offset = 1;
  for (let at = 32; at + 32 <= headerBytes && dbf[at] !== 0x0d; at += 32) {
    const length = dbf[at + 16]!;
    const type = String.fromCharCode(dbf[at + 11]!);
    if (type === 'N' || type === 'F') {
      const name = new TextDecoder('latin1').decode(dbf.subarray(at, at + 11)).replace(/\0.*$/s, '');
      fields.push({ name, offset, length });
    }
    offset += length;
  }
  if (headerBytes + rowCount * rowBytes > dbf.byteLength || offset > rowBytes) {
    throw new AppError('prescription_unreadable');
  }
  const decoder = new TextDecoder('latin1');
  return Array.from({ length: rowCount }, (_, row) => {
    const start = headerBytes + row * rowBytes;
    const values: Record<string, number | null> = {};
    for (const field of fields) {
      const text = decoder.decode(dbf.subarray(start + field.offset, start + field.offset + field.length)).trim();
      const value = text === '' ? Number.NaN : Number(text);
      values[field.name] = Number.isFinite(value) ? value : null;
    }
    return values;
  });
}

function readShapefileLayer(
  layer: Partial<Record<ShapefilePart, Uint8Array>>,
  readers: ShapefileReaders,
): PrescriptionZone[] {
  const prj = conversionOf(layer.prj && new TextDecoder().decode(layer.prj), readers);
  let shapes: (Geometry | null)[];
  try {
    shapes = readers.parseShp(layer.shp!, prj) as (Geometry | null)[];
  } catch {
    throw new AppError('prescription_unreadable');
  }
  const rows = dbfNumbers(layer.dbf!);
  return zonesOf(shapes.map((geometry, index) => ({ geometry, properties: rows[index] ?? {} })));
}

function readGeoJson(bytes: Uint8Array): PrescriptionZone[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError('prescription_unreadable');
  }
  if (typeof parsed !== 'object' || parsed === null) throw new AppError('prescription_unreadable');
  const object = parsed as { type?: unknown; features?: unknown; crs?: { properties?: { name?: unknown } } };
  const system = object.crs?.properties?.name;
  if (object.crs !== undefined && !(typeof system === 'string' && WGS84_NAMES.test(system))) {
    throw new AppError('prescription_projection');
  }
  let features: Feature[];
  if (object.type === 'FeatureCollection' && Array.isArray(object.features)) features = object.features as Feature[];
  else if (object.type === 'Feature') features = [object as Feature];
  else throw new AppError('prescription_unreadable');
  let corners = 0;
  for (const feature of features) corners += geometryCorners(feature?.geometry);
  if (corners > MAX_PRESCRIPTION_CORNERS) throw new AppError('prescription_too_many_corners');
  return zonesOf(features);
}

function polygonsOf(geometry: Geometry | null | undefined): unknown[] {
  if (!geometry || !Array.isArray(geometry.coordinates)) return [];
  if (geometry.type === 'Polygon') return [geometry.coordinates];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates;
  return [];
}

function geometryCorners(geometry: Geometry | null | undefined): number {
  let corners = 0;
  for (const polygon of polygonsOf(geometry)) {
    if (!Array.isArray(polygon)) continue;
    for (const ring of polygon) if (Array.isArray(ring)) corners += ring.length;
  }
  return corners;
}

/** A ring of at least three corners, each [longitude, latitude] in degrees' range; anything else is not read. */
function ringOf(ring: unknown): [number, number][] {
  if (!Array.isArray(ring) || ring.length < 3) throw new AppError('prescription_unreadable');
  return ring.map((position) => {
    if (!Array.isArray(position)) throw new AppError('prescription_unreadable');
    const [lng, lat] = position as unknown[];
    if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) {
      throw new AppError('prescription_unreadable');
    }
    // Metres, not degrees: a projected file whose system was not given.
    if (Math.abs(lng) > 180 || Math.abs(lat) > 90) throw new AppError('prescription_projection');
    return [lng, lat];
  });
}

/** Every polygon of the features, each part of a multipolygon its own, with its feature's attributes. */
function zonesOf(features: Feature[]): PrescriptionZone[] {
  return features.flatMap((feature) =>
    polygonsOf(feature?.geometry).map((polygon) => {
      if (!Array.isArray(polygon) || polygon.length === 0) throw new AppError('prescription_unreadable');
      return { rings: polygon.map(ringOf), values: feature.properties ?? {} };
    }),
  );
}
