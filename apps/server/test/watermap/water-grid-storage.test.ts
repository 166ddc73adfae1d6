import { WatermapResponseSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { localDate } from '../../src/time/local-day';
import { dayOfYear } from '../../src/modules/watermap/day-of-year';
import { WATER_GRID_STEP_M } from '../../src/modules/watermap/water-accounting';
import { type WaterReport, cellKey, waterBetween } from '../../src/modules/watermap/water-grid';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const TIME_ZONE = 'Europe/Warsaw';
const YEAR = 2026;
/** The precision the stored grid keeps against the water as counted in double precision. */
const TOLERANCE_MM = 0.01;

/**
 * A machine turning at `degreesPerSecond` from `angle`, reporting every 5 s: a slow arm leaves the
 * cells near the centre water from hundreds of pairs, each a round's addition to the same day.
 */
function turning(from: string, minutes: number, angle: number, degreesPerSecond: number): WaterReport[] {
  return Array.from({ length: (minutes * 60) / 5 + 1 }, (_, index) => ({
    ts: new Date(from).getTime() + index * 5_000,
    status: 'front' as const,
    angle: (angle + index * 5 * degreesPerSecond) % 360,
    distance: 320,
    flow: 72,
  }));
}

/**
 * The water of each cell on each local day, counted here in double precision from the pairs of
 * reports, as the grid held it when it kept doubles: what every reader must still read.
 */
function counted(reports: WaterReport[]): Map<string, Map<number, number>> {
  const cells = new Map<string, Map<number, number>>();
  for (let index = 1; index < reports.length; index += 1) {
    const from = reports[index - 1]!;
    const { day } = dayOfYear(new Date(`${localDate(TIME_ZONE, from.ts)}T00:00:00Z`));
    for (const [key, mm] of waterBetween(from, reports[index]!, WATER_GRID_STEP_M)) {
      const days = cells.get(key) ?? new Map<number, number>();
      days.set(day, (days.get(day) ?? 0) + mm);
      cells.set(key, days);
    }
  }
  return cells;
}

function waterOf(days: Map<number, number> | undefined, first: number, last: number): number {
  let total = 0;
  for (const [day, mm] of days ?? []) if (day >= first && day <= last) total += mm;
  return total;
}

describe('the water grid as stored', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let sprinklerId: number;
  let machineId: string;
  let expected: Map<string, Map<number, number>>;
  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    const pivot = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 320 });
    sprinklerId = pivot.id;
    machineId = pivot.internalId;
    const user = await t.buildUser();
    await grant(t, pivot.id, user.id);
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    // Passes on three days, one across local midnight, two over the same cells on one day, and a
    // slow one whose centre cells get water from every pair.
    const reports = [
      ...turning('2026-05-04T06:00:00Z', 30, 10, 0.02),
      ...turning('2026-05-04T12:00:00Z', 20, 25, 0.01),
      ...turning('2026-05-08T21:45:00Z', 30, 200, 0.02),
      ...turning('2026-05-20T04:00:00Z', 40, 300, 0.002),
    ];
    expected = counted(reports);
    await t.database.db
      .insert(telemetry)
      .values(reports.map((report) => ({ ...report, machineId, ts: new Date(report.ts), speed: 50, pressure: 2.5 })));
    await t.app.waterAccounting.runOnce(new Date());
  }, 180_000);
  afterAll(() => t.close());

  it("holds each cell's water of any range to 0.01 mm of the water counted in double precision", async () => {
    const ranges = [
      ['2026-05-04', '2026-05-04'],
      ['2026-05-05', '2026-05-08'],
      ['2026-05-09', '2026-05-09'],
      ['2026-05-01', '2026-05-31'],
      ['2026-05-21', '2026-12-31'],
    ] as const;
    for (const [start, stop] of ranges) {
      const first = new Date(`${start}T00:00:00Z`);
      const last = new Date(`${stop}T00:00:00Z`);
      const { cells } = await t.app.watermap.dailyWater(machineId, first, last);
      const wanted = [...expected].filter(([, days]) => waterOf(days, dayOfYear(first).day, dayOfYear(last).day) > 0);
      expect(cells.length).toBe(wanted.length);
      for (const cell of cells) {
        const mm = waterOf(expected.get(cellKey(cell.x, cell.y)), dayOfYear(first).day, dayOfYear(last).day);
        expect(Math.abs(cell.daily.reduce((sum, day) => sum + day, 0) - mm)).toBeLessThan(TOLERANCE_MM);
      }
    }
  });

  it('serves the watermap as the water counted in double precision rounds it', async () => {
    const response = await farmer.get(`/api/sprinkler/${sprinklerId}/watermap/`, {
      query: { start: '01.05.2026', stop: '31.05.2026' },
    });
    expect(response.status).toBe(200);
    const served = WatermapResponseSchema.parse(response.body).data.map(([, , mm]) => mm);
    const wanted = [...expected.values()]
      .map((days) => waterOf(days, 1, 366))
      .filter((mm) => mm >= 0.05)
      .map((mm) => Math.round(mm * 10) / 10);
    expect(served.sort((a, b) => a - b)).toEqual(wanted.sort((a, b) => a - b));
  });

  it("gives the water balance each cell's running sums, day by day, to 0.01 mm", async () => {
    const { rows } = await t.app.watermap.changedWater(machineId, {
      firstYear: YEAR,
      lastYear: YEAR,
      lowerYear: YEAR,
      lower: dayOfYear(new Date('2026-05-01T00:00:00Z')).day,
      sinceRevision: -1,
    });
    expect(rows).toHaveLength(expected.size);
    for (const row of rows) {
      const days = expected.get(cellKey(row.x, row.y));
      expect(row.offset + row.sums.length - 1).toBe(Math.max(...days!.keys()));
      row.sums.forEach((sum, index) => {
        expect(Math.abs(sum - waterOf(days, 1, row.offset + index))).toBeLessThan(TOLERANCE_MM);
      });
    }
    const { cells } = await t.app.watermap.dailyWater(
      machineId,
      new Date(Date.UTC(YEAR, 4, 1)),
      new Date(Date.UTC(YEAR, 4, 31)),
    );
    const mayFirst = dayOfYear(new Date('2026-05-01T00:00:00Z')).day;
    for (const cell of cells) {
      const days = expected.get(cellKey(cell.x, cell.y));
      cell.daily.forEach((mm, index) => {
        expect(Math.abs(mm - waterOf(days, mayFirst + index, mayFirst + index))).toBeLessThan(TOLERANCE_MM);
      });
    }
  });
});
