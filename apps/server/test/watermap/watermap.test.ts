import { WatermapResponseSchema, dottedOfIsoDate } from '@pivot/contracts';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';
import { TURNING_FLOW, TURNING_REPORT_EVERY_MS, storeTurning } from '../support/turning-machine';

const FLOW = TURNING_FLOW;
const REPORT_EVERY_MS = TURNING_REPORT_EVERY_MS;

describe('the watermap', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let sprinklerId: number;
  let machineId: string;
  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const pivot = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 300 });
    sprinklerId = pivot.id;
    machineId = pivot.internalId;
    const user = await t.buildUser();
    await grant(t, pivot.id, user.id);
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    // One hour on 10 March (local time), one on 2 April.
    await storeTurning(t, pivot.internalId, new Date('2026-03-10T08:00:00Z'), 60);
    await storeTurning(t, pivot.internalId, new Date('2026-04-02T08:00:00Z'), 60);
    // An hour across New Year: from 23:30 on 31 December, local time (UTC+1).
    await storeTurning(t, pivot.internalId, new Date('2025-12-31T22:30:00Z'), 60);
    await t.app.waterAccounting.runOnce(new Date());
  });
  afterAll(() => t.close());

  async function watermap(start: string, stop: string) {
    const response = await farmer.get(`/api/sprinkler/${sprinklerId}/watermap/`, { query: { start, stop } });
    expect(response.status).toBe(200);
    return WatermapResponseSchema.parse(response.body);
  }

  function volumeOf(map: { data: [number, number, number][]; step: number }): number {
    return map.data.reduce((sum, [, , mm]) => sum + (mm / 1000) * map.step * map.step, 0);
  }

  it('holds the water of the days asked for: the volume that flowed, on cells around the machine', async () => {
    const march = await watermap('10.03.2026', '10.03.2026');
    expect(march.step).toBe(10);
    expect(volumeOf(march)).toBeCloseTo(FLOW, -1);
    for (const [lat, lng] of march.data) {
      expect(Math.abs(lat - 52.3)).toBeLessThan(0.003);
      expect(Math.abs(lng - 17.2)).toBeLessThan(0.005);
    }
  });

  it('writes the cells byte for byte as the zod serializer does', async () => {
    const response = await t.app.inject({
      url: `/api/sprinkler/${sprinklerId}/watermap/?start=01.03.2026&stop=30.04.2026`,
      headers: { authorization: `Bearer ${farmer.access}` },
    });
    const map = WatermapResponseSchema.parse(response.json());
    expect(map.data.length).toBeGreaterThan(100);
    const zodSerializer = serializerCompiler({ schema: WatermapResponseSchema, method: 'GET', url: '/' });
    expect(response.payload).toBe((zodSerializer as (data: unknown) => string)(map));
  });

  it('adds up days across months, and leaves out days outside the range', async () => {
    expect(volumeOf(await watermap('01.03.2026', '30.04.2026'))).toBeCloseTo(2 * FLOW, -1);
    expect(volumeOf(await watermap('11.03.2026', '01.04.2026'))).toBe(0);
    expect(volumeOf(await watermap('02.04.2026', '05.05.2026'))).toBeCloseTo(FLOW, -1);
    expect(volumeOf(await watermap('01.04.2026', '01.04.2026'))).toBe(0);
    expect(volumeOf(await watermap('09.03.2026', '11.03.2026'))).toBeCloseTo(FLOW, -1);
  });

  it('splits water at local midnight, and adds up a range across New Year', async () => {
    expect(volumeOf(await watermap('31.12.2025', '31.12.2025'))).toBeCloseTo(FLOW / 2, -1);
    expect(volumeOf(await watermap('01.01.2026', '01.01.2026'))).toBeCloseTo(FLOW / 2, -1);
    expect(volumeOf(await watermap('01.12.2025', '28.02.2026'))).toBeCloseTo(FLOW, -1);
    expect(volumeOf(await watermap('15.12.2025', '10.03.2026'))).toBeCloseTo(2 * FLOW, -1);
  });

  it("gives another module each cell's water day by day, across New Year too", async () => {
    const first = new Date(Date.UTC(2025, 11, 30));
    const { step, cells } = await t.app.watermap.dailyWater(machineId, first, new Date(Date.UTC(2026, 2, 11)));
    expect(step).toBe(10);
    const volumeOn = (dayIndex: number) =>
      cells.reduce((sum, cell) => sum + (cell.daily[dayIndex]! / 1000) * step * step, 0);
    // 30 December is day 0: 31 December, 1 January, 10 March (day 70), nothing on the other days.
    expect(cells[0]!.daily).toHaveLength(72);
    expect(volumeOn(1)).toBeCloseTo(FLOW / 2, -1);
    expect(volumeOn(2)).toBeCloseTo(FLOW / 2, -1);
    expect(volumeOn(70)).toBeCloseTo(FLOW, -1);
    const total = cells.reduce((sum, cell) => sum + cell.daily.reduce((cellSum, mm) => cellSum + mm, 0), 0);
    const counted = [1, 2, 70].reduce((sum, dayIndex) => sum + (volumeOn(dayIndex) * 1000) / (step * step), 0);
    expect(total).toBeCloseTo(counted, 6);
    // Each cell's days add up to what the watermap serves for the range.
    const served = await watermap('30.12.2025', '11.03.2026');
    expect(volumeOf(served)).toBeCloseTo(volumeOn(1) + volumeOn(2) + volumeOn(70), 0);
  });

  it('counts each report once, however often the accounting runs', async () => {
    await t.app.waterAccounting.runOnce(new Date());
    expect(volumeOf(await watermap('01.03.2026', '30.04.2026'))).toBeCloseTo(2 * FLOW, -1);
  });

  it('shows the water up to the newest report, the part the accounting has not written yet included', async () => {
    const now = Date.now();
    // Twenty minutes counted and written, then eighteen more stored and not counted yet.
    await storeTurning(t, machineId, new Date(now - 40 * 60_000), 20);
    await t.app.waterAccounting.runOnce(new Date(now - 20 * 60_000));
    await storeTurning(t, machineId, new Date(now - 20 * 60_000 + REPORT_EVERY_MS), 18);
    const dotted = (ms: number) => dottedOfIsoDate(localDate('Europe/Warsaw', ms));
    const [start, stop] = [dotted(now - 86_400_000), dotted(now)];
    const shown = await watermap(start, stop);
    expect(volumeOf(shown)).toBeCloseTo((FLOW * 38) / 60, -1);
    await t.app.waterAccounting.runOnce(new Date());
    const written = await watermap(start, stop);
    expect(Math.abs(volumeOf(written) / volumeOf(shown) - 1)).toBeLessThan(0.005);
  });

  it('rejects dates that are not days, and a range that ends before it starts', async () => {
    for (const query of [
      { start: '31.02.2026', stop: '01.03.2026' },
      { start: '2026-03-01', stop: '02.03.2026' },
      { start: '05.03.2026', stop: '01.03.2026' },
    ]) {
      expect((await farmer.get(`/api/sprinkler/${sprinklerId}/watermap/`, { query })).status).toBe(400);
    }
  });

  it('is not there for a user without access', async () => {
    const stranger = t.client();
    const user = await t.buildUser();
    await stranger.login(user.email, USER_PASSWORD);
    const response = await stranger.get(`/api/sprinkler/${sprinklerId}/watermap/`, {
      query: { start: '01.03.2026', stop: '30.04.2026' },
    });
    expect(response.status).toBe(404);
  });
});
