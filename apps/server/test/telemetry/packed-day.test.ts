import { isDeepStrictEqual } from 'node:util';
import { MACHINE_LIMITS, SPRINKLER_STATUSES, TELEMETRY_DECIMALS, type TelemetryMessage } from '@pivot/contracts';
import { simulateDay } from '@pivot/simulator';
import { asc, eq, getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import {
  type Compression,
  type DayReport,
  NUMBER_COLUMNS,
  PACKED_DAY_VERSION,
  inspectPackedDay,
  packDay,
  packDayAsync,
  unpackDay,
  unpackDayAsync,
} from '../../src/modules/telemetry/packed-day';
import { insertTelemetry } from '../../src/modules/telemetry/telemetry.repository';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { createTestDatabase } from '../support/database';

const DAY_START = Date.UTC(2026, 5, 1);
/** The bound is 15 bytes a packed report, indexes and row included; the packed bytes aim well below. */
const PACKED_BYTES_PER_REPORT_GOAL = 8;
const COMPRESSIONS: Compression[] = ['none', 'deflate', 'brotli'];

/** A simulated day as the telemetry table holds it: the alarm reason is the machine's state only. */
function simulatedDay(seed: number): DayReport[] {
  return simulateDay({ start: DAY_START, seed }).map(({ alarm: _alarm, ...report }) => report);
}

function report(overrides: Partial<DayReport> = {}): DayReport {
  return {
    ts: DAY_START,
    status: 'front',
    angle: 137.5,
    distance: 402,
    speed: 60,
    pressure: 2.4,
    flow: 85.2,
    ...overrides,
  };
}

/** Equal value for value, bit for bit: -0 is not 0, NaN is NaN. */
function expectExactly(actual: DayReport[], expected: DayReport[]): void {
  expect(actual).toHaveLength(expected.length);
  expect(actual).toEqual(expected);
  const different = actual.findIndex((value, index) => !isDeepStrictEqual(value, expected[index]));
  expect(
    different === -1 ? null : { index: different, actual: actual[different], expected: expected[different] },
  ).toBeNull();
}

function roundTrip(reports: DayReport[], compression: Compression = 'brotli'): DayReport[] {
  return unpackDay(packDay(reports, { compression }));
}

/** A small seeded generator (mulberry32), so a failing fuzz case can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('a packed day of reports', () => {
  it('holds every column of the telemetry table but the machine, which is its key', () => {
    const stored = Object.keys(getTableColumns(telemetry)).filter((column) => column !== 'machineId');
    expect([...NUMBER_COLUMNS, 'status'].sort()).toEqual(stored.sort());
    type Row = typeof telemetry.$inferSelect;
    type RowOfTheDay = { [Column in Exclude<keyof Row, 'machineId'>]: Column extends 'ts' ? number : Row[Column] };
    expectTypeOf<DayReport>().toEqualTypeOf<RowOfTheDay>();
  });

  it.each([1, 2, 3])('gives back a simulated day exactly, in under 8 bytes a report (seed %i)', (seed) => {
    const day = simulatedDay(seed);
    expect(day.length).toBeGreaterThan(10_000);
    const packed = packDay(day);
    expectExactly(unpackDay(packed), day);
    expect(packed.length / day.length).toBeLessThan(PACKED_BYTES_PER_REPORT_GOAL);
    // At the protocol's precision every column is whole numbers, none raw.
    const { columns } = inspectPackedDay(packed);
    for (const column of NUMBER_COLUMNS) {
      const encoding = columns[column];
      expect(encoding.kind, column).toBe('decimal');
      if (encoding.kind === 'decimal' && column !== 'ts') {
        expect(encoding.decimals).toBeLessThanOrEqual(TELEMETRY_DECIMALS[column]);
      }
    }
  });

  it.each(COMPRESSIONS)('gives back a simulated day exactly with compression %s', (compression) => {
    const day = simulatedDay(4);
    const packed = packDay(day, { compression });
    expect(inspectPackedDay(packed)).toMatchObject({ version: PACKED_DAY_VERSION, compression, count: day.length });
    expectExactly(unpackDay(packed), day);
  });

  it('gives back an empty day, in a few bytes', () => {
    for (const compression of COMPRESSIONS) {
      const packed = packDay([], { compression });
      expect(packed.length).toBeLessThan(32);
      expect(unpackDay(packed)).toEqual([]);
    }
  });

  it('gives back a single report', () => {
    for (const compression of COMPRESSIONS) expectExactly(roundTrip([report()], compression), [report()]);
  });

  it('gives back values at the bounds of the protocol', () => {
    const bounds: DayReport[] = [
      report({ ts: MACHINE_LIMITS.earliestTs, angle: 0, distance: 0, speed: 0, pressure: 0, flow: 0, status: 'stop' }),
      report({
        ts: MACHINE_LIMITS.latestTs,
        angle: 359.99,
        distance: MACHINE_LIMITS.armLengthM,
        speed: 100,
        pressure: MACHINE_LIMITS.pressureBar,
        flow: MACHINE_LIMITS.flowM3h,
        status: 'alarm',
      }),
      // The largest double below 360, which the schema allows: no decimal fraction gives it back.
      report({ ts: MACHINE_LIMITS.latestTs - 1, angle: 359.99999999999994, status: 'back' }),
    ];
    const packed = packDay(bounds);
    expectExactly(
      unpackDay(packed),
      [...bounds].sort((a, b) => a.ts - b.ts),
    );
    expect(inspectPackedDay(packed).columns.angle).toEqual({ kind: 'raw' });
  });

  it('keeps values finer than the protocol: more decimals where they give them back, raw where none do', () => {
    const day = simulatedDay(5).slice(0, 2000);
    day[10] = { ...day[10]!, angle: 137.125 };
    day[20] = { ...day[20]!, flow: 0.1 + 0.2 };
    day[30] = { ...day[30]!, pressure: 1 / 3 };
    const packed = packDay(day);
    expectExactly(unpackDay(packed), day);
    const { columns } = inspectPackedDay(packed);
    expect(columns.angle).toMatchObject({ kind: 'decimal', decimals: 3 });
    expect(columns.flow).toEqual({ kind: 'raw' });
    expect(columns.pressure).toEqual({ kind: 'raw' });
    expect(columns.speed).toMatchObject({ kind: 'decimal', decimals: 1 });
  });

  it('keeps what a double precision column can hold beyond the protocol: -0, NaN, infinities, huge and tiny values', () => {
    const odd = [-0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300, -1e-300, 2 ** 60, -5];
    const reports = odd.map((value, index) =>
      report({ ts: DAY_START + index, angle: value, distance: value, speed: value, pressure: value, flow: value }),
    );
    for (const compression of COMPRESSIONS) expectExactly(roundTrip(reports, compression), reports);
    // Each on its own too: -0 alone must not come back as 0.
    for (const value of odd) expectExactly(roundTrip([report({ flow: value })]), [report({ flow: value })]);
  });

  it('keeps reports with equal timestamps, in the order given', () => {
    const reports = [
      report({ flow: 1 }),
      report({ flow: 2 }),
      report({ ts: DAY_START + 5000, flow: 3 }),
      report({ flow: 4 }),
    ];
    expectExactly(roundTrip(reports), [reports[0]!, reports[1]!, reports[3]!, reports[2]!]);
  });

  it('gives back unsorted reports oldest first', () => {
    const day = simulatedDay(6).slice(0, 500);
    const shuffled = [...day].reverse();
    [shuffled[0], shuffled[250]] = [shuffled[250]!, shuffled[0]!];
    expectExactly(roundTrip(shuffled), day);
  });

  it.each(COMPRESSIONS)(
    'packs and unpacks off the event loop to the same bytes and reports (%s)',
    async (compression) => {
      const day = simulatedDay(4);
      const packed = await packDayAsync(day, { compression });
      expect(packed).toEqual(packDay(day, { compression }));
      expectExactly(await unpackDayAsync(packed), unpackDay(packed));
      await expect(unpackDayAsync(packed.subarray(0, packed.length - 3))).rejects.toThrow(RangeError);
    },
  );

  it('refuses a timestamp that is not whole milliseconds', () => {
    expect(() => packDay([report({ ts: DAY_START + 0.5 })])).toThrow(RangeError);
    expect(() => packDay([report({ ts: Number.NaN })])).toThrow(RangeError);
  });

  it('refuses bytes it did not write', () => {
    const packed = packDay(simulatedDay(7).slice(0, 100), { compression: 'none' });
    expect(() => unpackDay(new Uint8Array())).toThrow(RangeError);
    expect(() => unpackDay(Uint8Array.of(PACKED_DAY_VERSION + 1, ...packed.subarray(1)))).toThrow(/version/);
    expect(() => unpackDay(Uint8Array.of(PACKED_DAY_VERSION, 9, ...packed.subarray(2)))).toThrow(/compression/);
    expect(() => unpackDay(packed.subarray(0, packed.length - 1))).toThrow(RangeError);
    expect(() => unpackDay(Uint8Array.of(...packed, 0))).toThrow(RangeError);
    const brotli = packDay(simulatedDay(7).slice(0, 100));
    expect(() => unpackDay(brotli.subarray(0, brotli.length - 4))).toThrow(RangeError);
  });

  it('gives back random reports within the protocol exactly (fuzz)', () => {
    const random = seeded(22);
    const between = (min: number, max: number) => min + (max - min) * random();
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    /** A value as a controller might send it: at some precision, or any double in range. */
    const value = (min: number, max: number) => {
      const raw = between(min, max);
      const decimals = pick([0, 1, 2, 3, 6, 9, null]);
      if (decimals === null) return raw;
      const factor = 10 ** decimals;
      return Math.min(max, Math.round(raw * factor) / factor);
    };
    for (let round = 0; round < 300; round += 1) {
      const count = pick([0, 1, 2, 3, 17, 100, 1000]);
      const start = Math.floor(between(MACHINE_LIMITS.earliestTs, MACHINE_LIMITS.latestTs - 86_400_000));
      const steady = random() < 0.5;
      const reports: DayReport[] = Array.from({ length: count }, (_, index) => ({
        ts: steady ? start + index * 5000 : Math.floor(between(start, start + 86_400_000)),
        status: pick(SPRINKLER_STATUSES),
        angle: Math.min(value(0, 360), 359.99999999999994),
        distance: value(0, MACHINE_LIMITS.armLengthM),
        speed: value(0, 100),
        pressure: value(0, MACHINE_LIMITS.pressureBar),
        flow: value(0, MACHINE_LIMITS.flowM3h),
      }));
      const expected = [...reports].sort((a, b) => a.ts - b.ts);
      const compression = pick(COMPRESSIONS);
      const back = roundTrip(reports, compression);
      if (!isDeepStrictEqual(back, expected)) {
        expectExactly(back, expected);
        throw new Error(`round ${round} (${compression}) differs`);
      }
    }
  });
});

describe('a packed day of stored reports', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('gives back exactly what the telemetry table holds', async () => {
    const machineId = 'PACKED-01';
    const day = simulateDay({ start: DAY_START, seed: 8 });
    await insertTelemetry(
      database.db,
      day.map((message): { machineId: string; message: TelemetryMessage } => ({
        machineId,
        message: { v: 1, ...message },
      })),
    );
    const rows = await database.db
      .select()
      .from(telemetry)
      .where(eq(telemetry.machineId, machineId))
      .orderBy(asc(telemetry.ts));
    expect(rows).toHaveLength(day.length);
    const stored: DayReport[] = rows.map(({ machineId: _machineId, ts, ...row }) => ({ ts: ts.getTime(), ...row }));
    expectExactly(unpackDay(packDay(stored)), stored);
    expectExactly(stored, simulatedDay(8));
  });
});
