import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cropSeasons } from '../../src/modules/crop-seasons/crop-seasons.table';
import { KeptStates } from '../../src/modules/water-balance/water-balance.kept-state';
import { WaterBalanceService } from '../../src/modules/water-balance/water-balance.service';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { addWater } from '../../src/modules/watermap/watermap.repository';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { SignedInUser } from '../../src/http/request-context';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const HOUR_MS = 60 * 60 * 1000;
/** June in Warsaw is UTC+2: local midnight of day d of June 2026. */
const localMidnight = (day: number) => Date.UTC(2026, 5, day) - 2 * HOUR_MS;
const STATION = { lat: 52.301, lng: 17.2 };
/** Day of the year of d June 2026 (1 June is day 152). */
const juneDay = (day: number) => 151 + day;

function hourlyReadings(day: number) {
  return Array.from({ length: 24 }, (_, hour) => {
    const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
    return {
      stationId: 'WS-KEPT',
      machineId: null,
      ts: new Date(localMidnight(day) + hour * HOUR_MS + 30 * 60 * 1000),
      lat: STATION.lat,
      lng: STATION.lng,
      temperature: 11 + day * 0.5 + 12 * daylight,
      humidity: 90 - 40 * daylight,
      rain: hour === 6 && day === 2 ? 6 : 0,
      wind: 1.5 + (hour % 3) * 0.5,
      solarRadiation: 750 * daylight,
    };
  });
}

const season = (fieldCapacity: number) => [
  {
    name: 'Kept 2026',
    polygon: null,
    // Days 1–10 a short initial stage, so that the week runs into the development stage.
    crop: { kc: [0.5, 1.1, 0.6], stages: [3, 20, 30, 20], rootDepth: [0.2, 0.6], p: 0.5 },
    emergence: '01.06.2026',
    soil: { fieldCapacity, wiltingPoint: 0.12 },
  },
];

describe('the water balance kept per season', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let actor: SignedInUser;
  let sprinklerId: number;
  let internalId: string;
  let kept: WaterBalanceService;
  const fresh = () =>
    new WaterBalanceService({
      db: t.database.db,
      sprinklers: t.app.sprinklers,
      watermap: t.app.watermap,
      weather: t.app.weather,
      timeZone: 'Europe/Warsaw',
      keptStates: new KeptStates(),
    });
  /** The kept service's answer for the day, checked equal, cell by cell, to a service that keeps nothing. */
  async function keptEqualsFresh(date: string) {
    const answer = await kept.balance(actor, sprinklerId, { date });
    const reference = await fresh().balance(actor, sprinklerId, { date });
    expect(answer.cells.length).toBeGreaterThan(600);
    expect(answer.cells).toEqual(reference.cells);
    expect(answer).toEqual(reference);
    return answer;
  }

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const pivot = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 150 });
    sprinklerId = pivot.id;
    internalId = pivot.internalId;
    const user = await t.buildUser();
    await grant(t, pivot.id, user.id, 'control');
    actor = { id: user.id, email: user.email, admin: false, language: 'en' };
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    for (let day = 1; day <= 9; day += 1) await t.database.db.insert(weatherReadings).values(hourlyReadings(day));
    // One pass on 4 June: an hour turning at 0.01°/s (36°), 72 m³/h, counted by the watermap.
    const rows = [];
    const from = localMidnight(4) + 10 * HOUR_MS;
    for (let second = 0; second <= 3600; second += 5) {
      rows.push({
        machineId: internalId,
        ts: new Date(from + second * 1000),
        status: 'front' as const,
        angle: (10 + second * 0.01) % 360,
        distance: 150,
        speed: 50,
        pressure: 2.5,
        flow: 72,
      });
    }
    await t.database.db.insert(telemetry).values(rows);
    await t.app.waterAccounting.runOnce(new Date());
    expect((await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, season(0.25))).status).toBe(200);
    kept = fresh();
  });
  afterAll(() => t.close());

  it('goes on from the kept day and answers as a run from emergence does', async () => {
    await keptEqualsFresh('05.06.2026');
    expect(kept.keptStates.counts).toEqual({ resumed: 0, fromEmergence: 1 });
    await keptEqualsFresh('07.06.2026');
    await keptEqualsFresh('07.06.2026');
    await keptEqualsFresh('08.06.2026');
    expect(kept.keptStates.counts).toEqual({ resumed: 3, fromEmergence: 1 });
    // An earlier day runs from emergence and leaves the later state kept.
    await keptEqualsFresh('03.06.2026');
    await keptEqualsFresh('08.06.2026');
    expect(kept.keptStates.counts).toEqual({ resumed: 4, fromEmergence: 2 });
  });

  it('drops the kept state when water comes late for a day it holds', async () => {
    const before = await keptEqualsFresh('08.06.2026');
    const runs = kept.keptStates.counts.fromEmergence;
    // 12 mm counted now for 3 June on the cell east-north of the centre, as the accounting writes it.
    await t.database.db.transaction((tx) =>
      addWater(tx, internalId, { year: 2026, day: juneDay(3) }, [{ x: 0, y: 0, mm: 12 }]),
    );
    const after = await keptEqualsFresh('08.06.2026');
    expect(kept.keptStates.counts.fromEmergence).toBe(runs + 1);
    const changed = after.cells.findIndex((cell, index) => cell[2] !== before.cells[index]![2]);
    expect(changed).toBeGreaterThanOrEqual(0);
  });

  it('keeps the state when water comes for a day after it, and counts that water', async () => {
    await keptEqualsFresh('08.06.2026');
    const runs = kept.keptStates.counts.fromEmergence;
    // The state holds 7 June; water on 8 June is read from the rows changed since.
    await t.database.db.transaction((tx) =>
      addWater(tx, internalId, { year: 2026, day: juneDay(8) }, [{ x: 1, y: 1, mm: 9 }]),
    );
    const answer = await keptEqualsFresh('08.06.2026');
    expect(kept.keptStates.counts.fromEmergence).toBe(runs);
    expect(answer.zones[0]!.applied).toBeGreaterThan(0);
  });

  it('keeps running sums only of the cells watered after the kept day', async () => {
    await keptEqualsFresh('09.06.2026');
    const [row] = await t.database.db
      .select({ id: cropSeasons.id })
      .from(cropSeasons)
      .where(eq(cropSeasons.sprinklerId, sprinklerId));
    const state = kept.keptStates.get(row!.id)!;
    expect(state.validThrough).toBe(Date.UTC(2026, 5, 8) / 86_400_000);
    // The cells of the pass on 4 June have their water through 8 June and nothing after; the one
    // watered on 8 June too: no cell needs more.
    expect(state.water.filter((water) => water > 0).length).toBeGreaterThan(10);
    expect(state.sums.filter((slices) => slices !== undefined)).toEqual([]);
    // Water for 9 June, after the kept day: that cell's sums are kept, and the next day's answer reads them.
    await t.database.db.transaction((tx) =>
      addWater(tx, internalId, { year: 2026, day: juneDay(9) }, [{ x: 2, y: 2, mm: 5 }]),
    );
    await keptEqualsFresh('09.06.2026');
    const withWater = kept.keptStates.get(row!.id)!;
    expect(withWater.sums.filter((slices) => slices !== undefined)).toHaveLength(1);
    await keptEqualsFresh('10.06.2026');
  });

  it('drops the kept state when a reading comes late for a day it holds', async () => {
    const before = await keptEqualsFresh('08.06.2026');
    const runs = kept.keptStates.counts.fromEmergence;
    await t.database.db
      .insert(weatherReadings)
      .values({ ...hourlyReadings(3)[6]!, ts: new Date(localMidnight(3) + 6 * HOUR_MS + 45 * 60 * 1000), rain: 7 });
    const after = await keptEqualsFresh('08.06.2026');
    expect(kept.keptStates.counts.fromEmergence).toBe(runs + 1);
    // The station's days were summarised again (the weather's kept days are checked too): 7 mm more rain.
    expect(after.zones[0]!.depletion).toBeLessThan(before.zones[0]!.depletion);
  });

  it('drops the kept state when the season changes', async () => {
    const before = await keptEqualsFresh('08.06.2026');
    const runs = kept.keptStates.counts.fromEmergence;
    expect((await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, season(0.3))).status).toBe(200);
    const after = await keptEqualsFresh('08.06.2026');
    expect(kept.keptStates.counts.fromEmergence).toBe(runs + 1);
    expect(after.zones[0]!.taw).toBeGreaterThan(before.zones[0]!.taw);
  });
});
