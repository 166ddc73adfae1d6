import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  brotliDecompress,
  brotliDecompressSync,
  constants,
  deflateRaw,
  deflateRawSync,
  inflateRaw,
  inflateRawSync,
} from 'node:zlib';
import { SPRINKLER_STATUSES, type SprinklerStatus } from '@pivot/contracts';
import type { TelemetryRow } from './telemetry.repository';
import { ByteReader, ByteWriter } from './byte-stream';

/**
 * The packed form of one machine's reports of one day: what the telemetry table holds of them,
 * every column (the machine is the packed day's key, not in it), exactly, in a few bytes each.
 *
 *   byte 0        PACKED_DAY_VERSION
 *   byte 1        the compression of what follows: 0 none, 1 deflate (raw), 2 brotli
 *   then, compressed:
 *     count                                   varint
 *     ts                                      a number column (below)
 *     status   the distinct texts, in order of first appearance (varint count, then each as
 *              varint length + UTF-8), then runs (varint count, then each as varint index into
 *              the texts + varint length)
 *     angle, distance, speed, pressure, flow  a number column each
 *
 * A number column is a header byte, then its values. 0xFF: raw, each value as a float64
 * little-endian, bit for bit. Otherwise the byte is `decimals × 4 + order`: each value is
 * a whole number n with value = n / 10^decimals exactly, and the ns are stored as zigzag varints,
 * differenced `order` times (0: the ns, 1: each minus the one before, 2: the differences'
 * differences; the first value's predecessor is 0).
 *
 * The decimals are the fewest for which every value of the column comes back exactly: values
 * at the protocol's precision (TELEMETRY_DECIMALS) take at most its decimals, values finer than
 * that more, and a column with any value no decimal fraction up to MAX_DECIMALS gives back (a
 * computed 0.1 + 0.2, -0, NaN, a value too large) is stored raw. So nothing stored is ever lost,
 * and a day of ordinary reports packs to 1–2 bytes a report. The order is the one whose
 * differences look cheapest (fewest bits by their frequencies): on a simulated day, differences
 * for the timestamps and the speed, second differences for the angle of a turning arm, the
 * values themselves for noisy readings such as the flow.
 */
export type DayReport = TelemetryRow;

export const PACKED_DAY_VERSION = 1;
/** The number columns, in the order they are packed. */
export const NUMBER_COLUMNS = ['ts', 'angle', 'distance', 'speed', 'pressure', 'flow'] as const;
export type NumberColumn = (typeof NUMBER_COLUMNS)[number];

export type Compression = 'none' | 'deflate' | 'brotli';
const COMPRESSIONS: readonly Compression[] = ['none', 'deflate', 'brotli'];

/** How a number column is stored. */
export type ColumnEncoding = { kind: 'decimal'; decimals: number; order: Order } | { kind: 'raw' };
type Order = 0 | 1 | 2;
const ORDERS: readonly Order[] = [0, 1, 2];

/** What a packed day holds and how, read from its bytes. */
export type PackedDayLayout = {
  version: number;
  compression: Compression;
  count: number;
  /** Bytes before compression. */
  columnBytes: number;
  columns: Record<NumberColumn, ColumnEncoding>;
  statusRuns: number;
};

export type PackOptions = {
  /** brotli by default: about a quarter smaller than deflate on a day of reports (bench:packing). */
  compression?: Compression;
  /** brotli's quality, 0–11: 10 by default, smaller than 11 on a day of reports and three times faster (bench:packing). */
  brotliQuality?: number;
  /** brotli's window, 2^10–2^24 bytes: 2^16 by default; a day's columns (about 100 KB) gain nothing from more. */
  brotliWindowBits?: number;
};

const RAW = 0xff;
/** Past 9 decimals a column is stored raw: few values so fine are decimal fractions at all. */
const MAX_DECIMALS = 9;
/** Whole numbers up to 2^49, so that second differences (at most 4 × that) stay safe integers once zigzagged. */
const MAX_WHOLE = 2 ** 49;
/** A packed day never unpacks to more than this: no day holds a billion bytes of reports. */
const MAX_COLUMN_BYTES = 256 * 1024 * 1024;
const DEFAULT_BROTLI_QUALITY = 10;
const DEFAULT_BROTLI_WINDOW_BITS = 16;

/**
 * Packs a machine's reports of a day. They are stored oldest first: unpackDay gives them back in
 * order of `ts`, those with equal timestamps in the order given (the table's key forbids two,
 * but nothing here depends on it). Throws a RangeError on a `ts` that is not a whole number of
 * ms, which no stored timestamp is.
 */
export function packDay(reports: readonly DayReport[], options: PackOptions = {}): Uint8Array {
  const compression = options.compression ?? 'brotli';
  return framed(compression, compress(columnBytes(reports), compression, options));
}

/**
 * packDay with the compression on libuv's thread pool, off the event loop: a day's brotli takes
 * tens of milliseconds, which a server busy storing reports must not spend on its main thread.
 */
export async function packDayAsync(reports: readonly DayReport[], options: PackOptions = {}): Promise<Uint8Array> {
  const compression = options.compression ?? 'brotli';
  return framed(compression, await compressAsync(columnBytes(reports), compression, options));
}

/** The reports' columns, uncompressed. */
function columnBytes(reports: readonly DayReport[]): Uint8Array {
  for (const report of reports) {
    if (!Number.isSafeInteger(report.ts)) throw new RangeError(`Not a stored timestamp: ${report.ts}`);
  }
  const sorted = [...reports].sort((a, b) => a.ts - b.ts);
  const column = (name: NumberColumn) => sorted.map((report) => report[name]);
  const writer = new ByteWriter();
  writer.varint(sorted.length);
  writeNumberColumn(writer, column('ts'));
  writeStatuses(writer, sorted);
  for (const name of NUMBER_COLUMNS) if (name !== 'ts') writeNumberColumn(writer, column(name));
  return writer.bytes();
}

function framed(compression: Compression, body: Uint8Array): Uint8Array {
  const packed = new Uint8Array(2 + body.length);
  packed[0] = PACKED_DAY_VERSION;
  packed[1] = COMPRESSIONS.indexOf(compression);
  packed.set(body, 2);
  return packed;
}

/** The reports packDay packed, oldest first; throws a RangeError on bytes it did not write. */
export function unpackDay(packed: Uint8Array): DayReport[] {
  return readPackedDay(packed).reports;
}

/** How a packed day is stored, for benchmarks and tests. */
export function inspectPackedDay(packed: Uint8Array): PackedDayLayout {
  return readPackedDay(packed).layout;
}

/** unpackDay with the decompression off the event loop (see packDayAsync). */
export async function unpackDayAsync(packed: Uint8Array): Promise<DayReport[]> {
  const { version, compression } = frameOf(packed);
  return readColumns(await decompressAsync(packed.subarray(2), compression), version, compression).reports;
}

function frameOf(packed: Uint8Array): { version: number; compression: Compression } {
  if (packed.length < 2) throw new RangeError('The packed bytes end too soon');
  const version = packed[0]!;
  if (version !== PACKED_DAY_VERSION) throw new RangeError(`Unknown packed day version ${version}`);
  const compression = COMPRESSIONS[packed[1]!];
  if (!compression) throw new RangeError(`Unknown compression ${packed[1]}`);
  return { version, compression };
}

function readPackedDay(packed: Uint8Array): { reports: DayReport[]; layout: PackedDayLayout } {
  const { version, compression } = frameOf(packed);
  return readColumns(decompress(packed.subarray(2), compression), version, compression);
}

function readColumns(
  body: Uint8Array,
  version: number,
  compression: Compression,
): { reports: DayReport[]; layout: PackedDayLayout } {
  const reader = new ByteReader(body);
  const count = reader.varint();
  if (count > body.length) throw new RangeError('The packed bytes hold fewer reports than they say');
  const ts = readNumberColumn(reader, count);
  const statuses = readStatuses(reader, count);
  const angle = readNumberColumn(reader, count);
  const distance = readNumberColumn(reader, count);
  const speed = readNumberColumn(reader, count);
  const pressure = readNumberColumn(reader, count);
  const flow = readNumberColumn(reader, count);
  if (!reader.done) throw new RangeError('The packed bytes go on past the last column');
  const reports = new Array<DayReport>(count);
  for (let index = 0; index < count; index += 1) {
    reports[index] = {
      ts: ts.values[index]!,
      status: statuses.values[index]!,
      angle: angle.values[index]!,
      distance: distance.values[index]!,
      speed: speed.values[index]!,
      pressure: pressure.values[index]!,
      flow: flow.values[index]!,
    };
  }
  const columns = {
    ts: ts.encoding,
    angle: angle.encoding,
    distance: distance.encoding,
    speed: speed.encoding,
    pressure: pressure.encoding,
    flow: flow.encoding,
  };
  return {
    reports,
    layout: { version, compression, count, columnBytes: body.length, columns, statusRuns: statuses.runs },
  };
}

function writeNumberColumn(writer: ByteWriter, values: number[]): void {
  const decimal = asDecimals(values);
  if (!decimal) {
    writer.byte(RAW);
    for (const value of values) writer.float64(value);
    return;
  }
  let cheapest: number[] = decimal.whole;
  let cheapestOrder: Order = 0;
  let cheapestBits = estimatedBits(cheapest);
  let differenced = decimal.whole;
  for (const order of ORDERS.slice(1)) {
    differenced = differences(differenced);
    const bits = estimatedBits(differenced);
    if (bits < cheapestBits) [cheapest, cheapestOrder, cheapestBits] = [differenced, order, bits];
  }
  writer.byte(decimal.decimals * 4 + cheapestOrder);
  for (const value of cheapest) writer.signed(value);
}

function readNumberColumn(reader: ByteReader, count: number): { values: number[]; encoding: ColumnEncoding } {
  const header = reader.byte();
  const values = new Array<number>(count);
  if (header === RAW) {
    for (let index = 0; index < count; index += 1) values[index] = reader.float64();
    return { values, encoding: { kind: 'raw' } };
  }
  const decimals = Math.floor(header / 4);
  const order = (header % 4) as Order;
  if (decimals > MAX_DECIMALS || order > 2) throw new RangeError(`Unknown column header ${header}`);
  for (let index = 0; index < count; index += 1) values[index] = reader.signed();
  for (let pass = 0; pass < order; pass += 1) {
    for (let index = 1; index < count; index += 1) values[index]! += values[index - 1]!;
  }
  const factor = 10 ** decimals;
  for (let index = 0; index < count; index += 1) {
    if (Math.abs(values[index]!) > MAX_WHOLE) throw new RangeError('A packed value is out of range');
    values[index] = values[index]! / factor;
  }
  return { values, encoding: { kind: 'decimal', decimals, order } };
}

/**
 * The fewest decimals that give every value back exactly as n / 10^decimals, with the ns; null
 * when no number of them up to MAX_DECIMALS does.
 */
function asDecimals(values: number[]): { decimals: number; whole: number[] } | null {
  const whole = new Array<number>(values.length);
  for (let decimals = 0; decimals <= MAX_DECIMALS; decimals += 1) {
    const factor = 10 ** decimals;
    let exact = true;
    for (let index = 0; index < values.length; index += 1) {
      const value = values[index]!;
      // + 0 turns -0 into 0, so a stored -0 fails the check below and goes raw, sign kept.
      const scaled = Math.round(value * factor) + 0;
      if (!(Math.abs(scaled) <= MAX_WHOLE) || !Object.is(scaled / factor, value)) {
        exact = false;
        break;
      }
      whole[index] = scaled;
    }
    if (exact) return { decimals, whole };
  }
  return null;
}

function differences(values: number[]): number[] {
  return values.map((value, index) => value - (index === 0 ? 0 : values[index - 1]!));
}

/**
 * About how many bits the values take once compressed: each by how often it occurs (their
 * entropy), plus its varint once for each distinct value, which the compressor must see once.
 */
function estimatedBits(values: number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let bits = 0;
  for (const [value, count] of counts) {
    bits += count * Math.log2(values.length / count) + 8 * varintBytes(value);
  }
  return bits;
}

function varintBytes(value: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.abs(value) * 2 + 2) / 7));
}

function writeStatuses(writer: ByteWriter, reports: readonly DayReport[]): void {
  const texts: string[] = [];
  const runs: { index: number; length: number }[] = [];
  for (const { status } of reports) {
    const last = runs.at(-1);
    if (last && texts[last.index] === status) {
      last.length += 1;
      continue;
    }
    let index = texts.indexOf(status);
    if (index === -1) index = texts.push(status) - 1;
    runs.push({ index, length: 1 });
  }
  writer.varint(texts.length);
  for (const text of texts) writer.text(text);
  writer.varint(runs.length);
  for (const run of runs) {
    writer.varint(run.index);
    writer.varint(run.length);
  }
}

function readStatuses(reader: ByteReader, count: number): { values: SprinklerStatus[]; runs: number } {
  const texts = Array.from({ length: reader.varint() }, () => {
    const text = reader.text();
    if (!isStatus(text)) throw new RangeError(`Unknown status ${JSON.stringify(text)}`);
    return text;
  });
  const runs = reader.varint();
  const values: SprinklerStatus[] = [];
  for (let run = 0; run < runs; run += 1) {
    const status = texts[reader.varint()];
    const length = reader.varint();
    if (status === undefined || values.length + length > count) throw new RangeError('A status run is out of range');
    for (let index = 0; index < length; index += 1) values.push(status);
  }
  if (values.length !== count) throw new RangeError('The status runs do not cover the reports');
  return { values, runs };
}

function isStatus(text: string): text is SprinklerStatus {
  return (SPRINKLER_STATUSES as readonly string[]).includes(text);
}

function compress(bytes: Uint8Array, compression: Compression, options: PackOptions): Uint8Array {
  switch (compression) {
    case 'none':
      return bytes;
    case 'deflate':
      return deflateRawSync(bytes, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
    case 'brotli':
      return brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? DEFAULT_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_LGWIN]: options.brotliWindowBits ?? DEFAULT_BROTLI_WINDOW_BITS,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
  }
}

function decompress(bytes: Uint8Array, compression: Compression): Uint8Array {
  try {
    switch (compression) {
      case 'none':
        return bytes;
      case 'deflate':
        return inflateRawSync(bytes, { maxOutputLength: MAX_COLUMN_BYTES });
      case 'brotli':
        return brotliDecompressSync(bytes, { maxOutputLength: MAX_COLUMN_BYTES });
    }
  } catch (error) {
    throw new RangeError(
      `The packed bytes do not decompress: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

const brotliCompressAsync = promisify(brotliCompress);
const brotliDecompressAsync = promisify(brotliDecompress);
const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);

async function compressAsync(bytes: Uint8Array, compression: Compression, options: PackOptions): Promise<Uint8Array> {
  switch (compression) {
    case 'none':
      return bytes;
    case 'deflate':
      return deflateRawAsync(bytes, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
    case 'brotli':
      return brotliCompressAsync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? DEFAULT_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_LGWIN]: options.brotliWindowBits ?? DEFAULT_BROTLI_WINDOW_BITS,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
  }
}

async function decompressAsync(bytes: Uint8Array, compression: Compression): Promise<Uint8Array> {
  try {
    switch (compression) {
      case 'none':
        return bytes;
      case 'deflate':
        return await inflateRawAsync(bytes, { maxOutputLength: MAX_COLUMN_BYTES });
      case 'brotli':
        return await brotliDecompressAsync(bytes, { maxOutputLength: MAX_COLUMN_BYTES });
    }
  } catch (error) {
    throw new RangeError(
      `The packed bytes do not decompress: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
