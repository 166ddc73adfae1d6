import { simulateDay } from '@pivot/simulator';
import { WatermapResponseSchema } from '@pivot/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unpackDay } from '../../src/modules/telemetry/packed-day';
import { TelemetryPacker } from '../../src/modules/telemetry/telemetry-packer';
import { telemetryDays } from '../../src/modules/telemetry/telemetry-packing.table';
import { machineState, telemetry } from '../../src/modules/telemetry/telemetry.table';
import { waterCellYears, waterProgress } from '../../src/modules/watermap/watermap.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

type Row = typeof telemetry.$inferSelect;

/** A machine turning clockwise at 0.01° a second from `from`, reporting every 5 s, for `minutes`. */
function turning(machineId: string, from: string, minutes: number, startAngle = 45): Row[] {
  const start = Date.parse(from);
  return Array.from({ length: minutes * 12 + 1 }, (_, index) => ({
    machineId,
    ts: new Date(start + index * 5_000),
    status: 'front' as const,
    angle: Math.round(((startAngle + index * 0.05) % 360) * 100) / 100,
    distance: 300,
    speed: 50,
    pressure: 2.5,
    flow: 72,
  }));
}

/** A simulated day (about 11,000 reports), as the table holds it. */
function simulated(machineId: string, dayStart: string, seed: number): Row[] {
  return simulateDay({ start: Date.parse(dayStart), seed }).map(({ alarm: _alarm, ts, ...report }) => ({
    machineId,
    ts: new Date(ts),
    ...report,
  }));
}

describe('packed days of reports', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let farmerId: number;

  beforeAll(async () => {
    // Days are packed when a test says so: the app's own packing waits 100 years.
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const user = await t.buildUser();
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    farmerId = user.id;
  });
  afterAll(() => t.close());

  async function machine(lat = '52.300000', lng = '17.200000') {
    const pivot = await buildSprinkler(t, { lat, lng, armLength: 300 });
    await grant(t, pivot.id, farmerId);
    // A machine that reported has a latest state: the packing looks at those machines.
    await t.database.db.insert(machineState).values({ machineId: pivot.internalId }).onConflictDoNothing();
    return pivot;
  }

  async function store(rows: Row[]) {
    for (let index = 0; index < rows.length; index += 5_000) {
      await t.database.db.insert(telemetry).values(rows.slice(index, index + 5_000));
    }
  }

  async function rowsOf(machineId: string) {
    return t.database.db.select().from(telemetry).where(eq(telemetry.machineId, machineId)).orderBy(asc(telemetry.ts));
  }

  async function packedDaysOf(machineId: string) {
    return t.database.db
      .select()
      .from(telemetryDays)
      .where(eq(telemetryDays.machineId, machineId))
      .orderBy(asc(telemetryDays.day));
  }

  /** Every report of the machine through the one reader, as rows. */
  async function readBack(machineId: string, from: string, to: string): Promise<Row[]> {
    const rows: Row[] = [];
    for await (const { reports } of t.app.storedReports.ofDays(machineId, from, to)) {
      for (const report of reports) rows.push({ machineId, ...report, ts: new Date(report.ts) });
    }
    return rows;
  }

  it('packs a local calendar day in place of its rows, exactly, and skips a day already packed', async () => {
    const pivot = await machine();
    const id = pivot.internalId;
    // 1 June in Warsaw is 31 May 22:00 UTC to 1 June 22:00 UTC; rows on either side stay.
    const day = simulated(id, '2026-05-31T22:00:00Z', 1);
    const before = turning(id, '2026-05-31T21:00:00Z', 30);
    const after = turning(id, '2026-06-01T22:00:00Z', 30);
    await store([...before, ...day, ...after]);
    const stored = await rowsOf(id);

    expect(await t.app.telemetryPacker.packDay(id, '2026-06-01')).toBe('packed');
    const [packed] = await packedDaysOf(id);
    expect(packed).toMatchObject({ day: '2026-06-01', reportCount: day.length });
    expect(packed!.firstTs).toEqual(day[0]!.ts);
    expect(packed!.lastTs).toEqual(day.at(-1)!.ts);
    expect(packed!.packed.length / day.length).toBeLessThan(8);
    expect(await rowsOf(id)).toEqual([...before, ...after]);
    const { machineId: _machineId, ...first } = stored.find((row) => row.ts >= day[0]!.ts)!;
    expect(unpackDay(packed!.packed)[0]).toEqual({ ...first, ts: first.ts.getTime() });

    expect(await t.app.telemetryPacker.packDay(id, '2026-06-01')).toBe('already packed');
    expect(await t.app.telemetryPacker.packDay(id, '2026-06-05')).toBe('no reports');
    expect(await readBack(id, '2026-05-31', '2026-06-02')).toEqual(stored);
  });

  it('packs a day once when two pack it at once, losing and doubling nothing', async () => {
    const pivot = await machine();
    const id = pivot.internalId;
    await store(simulated(id, '2026-06-02T22:00:00Z', 2));
    const stored = await rowsOf(id);
    const outcomes = await Promise.all([
      t.app.telemetryPacker.packDay(id, '2026-06-03'),
      t.app.telemetryPacker.packDay(id, '2026-06-03'),
    ]);
    expect(outcomes.sort()).toEqual(['already packed', 'packed']);
    expect(await packedDaysOf(id)).toHaveLength(1);
    expect(await rowsOf(id)).toEqual([]);
    expect(await readBack(id, '2026-06-03', '2026-06-03')).toEqual(stored);
  });

  it('reads a late report of a packed day with the packed ones, and a late repeat of a packed one once', async () => {
    const pivot = await machine();
    const id = pivot.internalId;
    const day = turning(id, '2026-06-04T08:00:00Z', 10);
    await store(day);
    await t.app.telemetryPacker.packDay(id, '2026-06-04');
    const late = { ...day[3]!, ts: new Date(day[3]!.ts.getTime() + 1_000), angle: 1.5 };
    const repeat = { ...day[5]!, angle: 300 };
    await store([late, repeat]);
    const expected = [...day, late].sort((a, b) => a.ts.getTime() - b.ts.getTime());
    expect(await readBack(id, '2026-06-04', '2026-06-04')).toEqual(expected);
    // Packing it again packs the late report in (the repeat stays the packed one), and then leaves it.
    expect(await t.app.telemetryPacker.packDay(id, '2026-06-04')).toBe('repacked');
    expect(await rowsOf(id)).toEqual([]);
    expect((await packedDaysOf(id))[0]!.reportCount).toBe(expected.length);
    expect(await readBack(id, '2026-06-04', '2026-06-04')).toEqual(expected);
    expect(await t.app.telemetryPacker.packDay(id, '2026-06-04')).toBe('already packed');
  });

  it('packs what is due: days that ended TELEMETRY_PACK_AFTER_DAYS whole days ago, none after', async () => {
    const pivot = await machine();
    const id = pivot.internalId;
    const packer = new TelemetryPacker({
      db: t.database.db,
      partitions: t.app.telemetryPartitions,
      timeZone: 'Europe/Warsaw',
      packAfterDays: 2,
      logger: t.app.log,
    });
    // "Now" is 10 June, 12:00 in Warsaw: 7 June ended two whole days ago, 8 June not yet.
    const now = new Date('2026-06-10T10:00:00Z');
    for (const date of ['2026-06-05', '2026-06-07', '2026-06-08', '2026-06-10']) {
      await store(turning(id, `${date}T08:00:00Z`, 5));
    }
    const stored = await rowsOf(id);
    await packer.packDue(now);
    expect((await packedDaysOf(id)).map((day) => day.day)).toEqual(['2026-06-05', '2026-06-07']);
    expect((await rowsOf(id)).map((row) => row.ts.toISOString().slice(0, 10))).toEqual(
      expect.arrayContaining(['2026-06-08', '2026-06-10']),
    );
    expect(await readBack(id, '2026-06-01', '2026-06-30')).toEqual(stored);
  });

  it('gives the water accounting every page of a range across packed and unpacked days as before', async () => {
    const pivot = await machine();
    const id = pivot.internalId;
    const rows = [
      ...turning(id, '2026-06-11T21:50:00Z', 20),
      ...turning(id, '2026-06-12T08:00:00Z', 30),
      ...turning(id, '2026-06-13T08:00:00Z', 30),
      ...turning(id, '2026-06-14T08:00:00Z', 30),
    ];
    await store(rows);
    const { db } = t.database;
    const from = new Date('2026-06-11T00:00:00Z');
    const until = new Date('2026-06-15T00:00:00Z');
    const pages = async () => {
      const read = [];
      for (const [start, end, limit] of [
        [from, until, 250],
        [new Date('2026-06-11T21:55:00Z'), until, 100],
        [new Date('2026-06-12T08:20:00Z'), new Date('2026-06-13T08:10:00Z'), 250],
        [new Date('2026-06-13T08:29:00Z'), until, 7],
        [from, until, 5_000],
      ] as const) {
        read.push(await t.app.storedReports.between(db, id, start, end, limit));
      }
      return read;
    };
    const unpacked = await pages();
    expect(unpacked[4]).toHaveLength(rows.length);
    await t.app.telemetryPacker.packDay(id, '2026-06-12');
    await t.app.telemetryPacker.packDay(id, '2026-06-14');
    expect((await packedDaysOf(id)).map((day) => day.day)).toEqual(['2026-06-12', '2026-06-14']);
    expect(await pages()).toEqual(unpacked);
  });

  it('gives the same watermap, cell by cell, and the same CSV after packing', async () => {
    const pivot = await machine('52.400000', '17.300000');
    const id = pivot.internalId;
    const days = ['2026-04-10', '2026-05-02', '2026-06-20', '2026-07-15', '2026-08-30', '2026-09-28'];
    // An hour on each of six days of a season, and one across a local midnight.
    await store([
      ...days.flatMap((date, index) => turning(id, `${date}T06:00:00Z`, 60, index * 50)),
      ...turning(id, '2026-07-31T21:30:00Z', 60, 200),
    ]);
    const cells = () =>
      t.database.db
        .select()
        .from(waterCellYears)
        .where(eq(waterCellYears.machineId, id))
        .orderBy(asc(waterCellYears.year), asc(waterCellYears.x), asc(waterCellYears.y));
    const watermap = async () => {
      const response = await farmer.get(`/api/sprinkler/${pivot.id}/watermap/`, {
        query: { start: '01.04.2026', stop: '30.09.2026' },
      });
      expect(response.status).toBe(200);
      const map = WatermapResponseSchema.parse(response.body);
      // The cells come in the table's order, which rewriting them changes.
      return { ...map, data: map.data.sort((a, b) => a[0] - b[0] || a[1] - b[1]) };
    };
    const csv = async () =>
      (
        await t.app.inject({
          url: `/api/sprinkler/${pivot.id}/reports.csv?start=01.04.2026&stop=30.09.2026`,
          headers: { authorization: `Bearer ${farmer.access}` },
        })
      ).payload;

    await t.app.waterAccounting.runOnce(new Date('2026-10-01T00:00:00Z'));
    const cellsBefore = await cells();
    const mapBefore = await watermap();
    const csvBefore = await csv();
    expect(mapBefore.data.length).toBeGreaterThan(100);
    expect(csvBefore.split('\r\n').length).toBeGreaterThan(5_000);

    for (const date of [...days, '2026-07-31', '2026-08-01']) {
      expect(await t.app.telemetryPacker.packDay(id, date)).toBe('packed');
    }
    expect(await rowsOf(id)).toEqual([]);
    // Counted again from the packed days alone.
    await t.database.db.delete(waterCellYears).where(eq(waterCellYears.machineId, id));
    await t.database.db.delete(waterProgress).where(eq(waterProgress.machineId, id));
    await t.app.waterAccounting.runOnce(new Date('2026-10-01T00:00:00Z'));

    expect(await cells()).toEqual(cellsBefore);
    expect(await watermap()).toEqual(mapBefore);
    expect(await csv()).toBe(csvBefore);
    const [{ count } = { count: -1 }] = await t.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(telemetryDays)
      .where(eq(telemetryDays.machineId, id));
    expect(count).toBe(8);
  });
});

describe('the packing job', () => {
  it('packs the days that are due within a minute of the server starting, and leaves recent ones', async () => {
    const t = await createTestApp({ TELEMETRY_PACK_AFTER_DAYS: '2' });
    try {
      const pivot = await buildSprinkler(t);
      const id = pivot.internalId;
      await t.database.db.insert(machineState).values({ machineId: id }).onConflictDoNothing();
      const now = Date.now();
      const old = turning(id, new Date(now - 10 * 86_400_000).toISOString(), 5);
      const recent = turning(id, new Date(now - 60_000).toISOString(), 0);
      await t.database.db.insert(telemetry).values([...old, ...recent]);
      await vi.waitFor(
        async () => {
          const days = await t.database.db.select().from(telemetryDays).where(eq(telemetryDays.machineId, id));
          expect(days).toHaveLength(1);
        },
        { timeout: 55_000, interval: 1_000 },
      );
      const rows = await t.database.db.select().from(telemetry).where(eq(telemetry.machineId, id));
      expect(rows).toEqual(recent);
    } finally {
      await t.close();
    }
  }, 70_000);
});
