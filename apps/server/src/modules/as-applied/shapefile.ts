import type { AsAppliedFeature } from './as-applied-cells';
import type { ZipEntry } from './zip-stream';

/**
 * An ESRI shapefile of square polygons with the as-applied fields, written as its files' bytes
 * (the ESRI Shapefile Technical Description, 1998; dBASE III for the table): what FieldView,
 * Operations Center and QGIS import. Each file comes in chunks of a bounded size.
 */

const POLYGON = 5;
const HEADER_BYTES = 100;
/** A square: 5 points (the first repeated last), one part. */
const POINTS = 5;
const CONTENT_BYTES = 4 + 32 + 4 + 4 + 4 + POINTS * 16;
const RECORD_HEADER_BYTES = 8;
const RECORDS_PER_CHUNK = 1_000;

/** WGS 84 as ESRI writes it: QGIS and the farm systems read longitude and latitude from it. */
export const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

type DbfField = { name: keyof Omit<AsAppliedFeature, 'corners'>; type: 'C' | 'N'; length: number; decimals: number };

/** The table's columns; names of at most 10 characters, lengths in bytes. */
const FIELDS: DbfField[] = [
  { name: 'MACHINE', type: 'C', length: 100, decimals: 0 },
  { name: 'DEPTH_MM', type: 'N', length: 10, decimals: 2 },
  { name: 'VOL_M3', type: 'N', length: 12, decimals: 3 },
  { name: 'START_UTC', type: 'C', length: 20, decimals: 0 },
  { name: 'END_UTC', type: 'C', length: 20, decimals: 0 },
];
const DBF_RECORD_BYTES = 1 + FIELDS.reduce((sum, field) => sum + field.length, 0);

type Box = { minX: number; minY: number; maxX: number; maxY: number };

function boxOf(points: [number, number][]): Box {
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [x, y] of points) {
    box.minX = Math.min(box.minX, x);
    box.minY = Math.min(box.minY, y);
    box.maxX = Math.max(box.maxX, x);
    box.maxY = Math.max(box.maxY, y);
  }
  return box;
}

function writeBox(view: DataView, offset: number, box: Box): void {
  view.setFloat64(offset, box.minX, true);
  view.setFloat64(offset + 8, box.minY, true);
  view.setFloat64(offset + 16, box.maxX, true);
  view.setFloat64(offset + 24, box.maxY, true);
}

/** The 100-byte header the .shp and the .shx share, for a file of `bytes`. */
function mainHeader(bytes: number, box: Box): Uint8Array {
  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  view.setInt32(0, 9994);
  view.setInt32(24, bytes / 2);
  view.setInt32(28, 1000, true);
  view.setInt32(32, POLYGON, true);
  writeBox(view, 36, box);
  return header;
}

/** The box around every feature; all zeros for none, as the specification allows. */
function extent(features: AsAppliedFeature[]): Box {
  if (features.length === 0) return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const feature of features) {
    const own = boxOf(feature.corners);
    box.minX = Math.min(box.minX, own.minX);
    box.minY = Math.min(box.minY, own.minY);
    box.maxX = Math.max(box.maxX, own.maxX);
    box.maxY = Math.max(box.maxY, own.maxY);
  }
  return box;
}

/** Features from `start`, a chunk's worth. */
function* inChunks(features: AsAppliedFeature[]): Generator<AsAppliedFeature[]> {
  for (let start = 0; start < features.length; start += RECORDS_PER_CHUNK) {
    yield features.slice(start, start + RECORDS_PER_CHUNK);
  }
}

function* shpChunks(features: AsAppliedFeature[], box: Box): Generator<Uint8Array> {
  const recordBytes = RECORD_HEADER_BYTES + CONTENT_BYTES;
  yield mainHeader(HEADER_BYTES + features.length * recordBytes, box);
  let number = 1;
  for (const chunk of inChunks(features)) {
    const bytes = new Uint8Array(chunk.length * recordBytes);
    const view = new DataView(bytes.buffer);
    chunk.forEach((feature, index) => {
      const at = index * recordBytes;
      view.setInt32(at, number);
      view.setInt32(at + 4, CONTENT_BYTES / 2);
      view.setInt32(at + 8, POLYGON, true);
      writeBox(view, at + 12, boxOf(feature.corners));
      view.setInt32(at + 44, 1, true);
      view.setInt32(at + 48, POINTS, true);
      view.setInt32(at + 52, 0, true);
      // A shapefile's outer ring runs clockwise: the corners, given counter-clockwise, backwards.
      const [first, ...rest] = feature.corners;
      [first!, ...rest.reverse(), first!].forEach(([x, y], point) => {
        view.setFloat64(at + 56 + point * 16, x, true);
        view.setFloat64(at + 64 + point * 16, y, true);
      });
      number += 1;
    });
    yield bytes;
  }
}

function* shxChunks(features: AsAppliedFeature[], box: Box): Generator<Uint8Array> {
  const recordBytes = RECORD_HEADER_BYTES + CONTENT_BYTES;
  yield mainHeader(HEADER_BYTES + features.length * 8, box);
  let offset = HEADER_BYTES;
  for (const chunk of inChunks(features)) {
    const bytes = new Uint8Array(chunk.length * 8);
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < chunk.length; index += 1) {
      view.setInt32(index * 8, offset / 2);
      view.setInt32(index * 8 + 4, CONTENT_BYTES / 2);
      offset += recordBytes;
    }
    yield bytes;
  }
}

const encoder = new TextEncoder();

/** Writes text in UTF-8 at `at`, cut to `length` bytes without splitting a character, padded with spaces. */
function writeText(record: Uint8Array, at: number, text: string, length: number): void {
  const bytes = encoder.encode(text);
  let used = Math.min(bytes.length, length);
  // A byte 10xxxxxx continues a character: cut before the character it belongs to.
  if (used < bytes.length) while (used > 0 && (bytes[used]! & 0xc0) === 0x80) used -= 1;
  record.set(bytes.subarray(0, used), at);
  record.fill(0x20, at + used, at + length);
}

/** Writes a number right-aligned in `length` characters with `decimals` places, as dBASE does. */
function writeNumber(record: Uint8Array, at: number, value: number, length: number, decimals: number): void {
  const text = value.toFixed(decimals).padStart(length, ' ').slice(-length);
  for (let index = 0; index < length; index += 1) record[at + index] = text.charCodeAt(index);
}

function dbfHeader(count: number, now: Date): Uint8Array {
  const headerBytes = 32 + FIELDS.length * 32 + 1;
  const header = new Uint8Array(headerBytes);
  const view = new DataView(header.buffer);
  header[0] = 0x03;
  header[1] = now.getUTCFullYear() - 1900;
  header[2] = now.getUTCMonth() + 1;
  header[3] = now.getUTCDate();
  view.setUint32(4, count, true);
  view.setUint16(8, headerBytes, true);
  view.setUint16(10, DBF_RECORD_BYTES, true);
  FIELDS.forEach((field, index) => {
    const at = 32 + index * 32;
    header.set(encoder.encode(field.name), at);
    header[at + 11] = field.type.charCodeAt(0);
    header[at + 16] = field.length;
    header[at + 17] = field.decimals;
  });
  header[headerBytes - 1] = 0x0d;
  return header;
}

function* dbfChunks(features: AsAppliedFeature[], now: Date): Generator<Uint8Array> {
  yield dbfHeader(features.length, now);
  for (const chunk of inChunks(features)) {
    const bytes = new Uint8Array(chunk.length * DBF_RECORD_BYTES);
    chunk.forEach((feature, index) => {
      let at = index * DBF_RECORD_BYTES;
      bytes[at] = 0x20;
      at += 1;
      for (const field of FIELDS) {
        const value = feature[field.name];
        if (typeof value === 'number') writeNumber(bytes, at, value, field.length, field.decimals);
        else writeText(bytes, at, value, field.length);
        at += field.length;
      }
    });
    yield bytes;
  }
  yield Uint8Array.of(0x1a);
}

/** The files of a shapefile named `baseName`: .shp, .shx, .dbf, .prj and .cpg (the table's text is UTF-8). */
export function shapefileParts(baseName: string, features: AsAppliedFeature[], now = new Date()): ZipEntry[] {
  const box = extent(features);
  return [
    { name: `${baseName}.shp`, chunks: shpChunks(features, box) },
    { name: `${baseName}.shx`, chunks: shxChunks(features, box) },
    { name: `${baseName}.dbf`, chunks: dbfChunks(features, now) },
    { name: `${baseName}.prj`, chunks: [encoder.encode(WGS84_PRJ)] },
    { name: `${baseName}.cpg`, chunks: [encoder.encode('UTF-8')] },
  ];
}
