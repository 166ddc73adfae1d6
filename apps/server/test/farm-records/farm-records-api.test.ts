import {
  FarmRecordListSchema,
  FarmRecordSchema,
  LogListResponseSchema,
  METRES_PER_DEGREE,
  WaterBalanceSchema,
  dottedOfIsoDate,
} from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';
import { mildDryDay } from '../support/weather-days';

const HOUR_MS = 60 * 60 * 1000;
/** June in Warsaw is UTC+2: local midnight of day d of June 2026. */
const localMidnight = (day: number) => Date.UTC(2026, 5, day) - 2 * HOUR_MS;
const CENTRE = { lat: 52.4, lng: 17.3 };
const DAYS = 7;
const SEASON = 'Records crop';
const EFFICIENCY = 0.85;

describe("the farm's own records", () => {
  let t: TestApp;
  let farmer: ApiClient;
  let watcher: ApiClient;
  let stranger: ApiClient;
  let sprinklerId: number;
  let machineId: string;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const signedIn = async () => {
      const user = await t.buildUser();
      const client = t.client();
      await client.login(user.email, USER_PASSWORD);
      return { user, client };
    };
    const owner = await signedIn();
    const onlyWatching = await signedIn();
    farmer = owner.client;
    watcher = onlyWatching.client;
    stranger = (await signedIn()).client;
    for (let day = 1; day <= DAYS; day += 1)
      await t.database.db.insert(weatherReadings).values(mildDryDay('WS-RECORDS', localMidnight(day), CENTRE));
    const pivot = await buildSprinkler(t, { lat: CENTRE.lat.toFixed(6), lng: CENTRE.lng.toFixed(6), armLength: 150 });
    sprinklerId = pivot.id;
    machineId = pivot.internalId;
    url = `/api/sprinkler/${sprinklerId}/records/`;
    await grant(t, sprinklerId, owner.user.id, 'control');
    await grant(t, sprinklerId, onlyWatching.user.id, 'watch');
    const seasons = await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, [
      {
        name: SEASON,
        polygon: null,
        crop: { kc: [0.5, 1.1, 0.6], stages: [10, 20, 30, 20], rootDepth: [0.2, 0.6], p: 0.5 },
        emergence: '01.06.2026',
        soil: { fieldCapacity: 0.25, wiltingPoint: 0.12 },
        efficiency: EFFICIENCY,
      },
    ]);
    expect(seasons.status).toBe(200);
  });
  afterAll(() => t.close());

  async function balanceOn(date: string) {
    const response = await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, { query: { date } });
    expect(response.status).toBe(200);
    return WaterBalanceSchema.parse(response.body);
  }

  async function record(body: unknown, client = farmer) {
    const response = await client.post(url, body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return FarmRecordSchema.parse(response.body);
  }

  it("a rain gauge's reading replaces the station's rain at once: made, changed, removed, and logged", async () => {
    // The model alone (the station measured no rain); this answer keeps the season's state.
    const model = await balanceOn('07.06.2026');
    const modelDepletion = model.zones[0]!.depletion;
    expect(modelDepletion).toBeGreaterThan(8);
    expect(model.zones[0]!.depletion).toBeLessThan(model.zones[0]!.raw);

    // 3 mm on 5 June, over 0.2 ET0: the depletion of the 7th falls by exactly 3 mm (Ks 1, no percolation),
    // though the kept state holds that day.
    const gauge = await record({ kind: 'rain_gauge', date: '05.06.2026', area: { kind: 'machine' }, mm: 3 });
    expect(gauge).toMatchObject({ kind: 'rain_gauge', date: '05.06.2026', area: { kind: 'machine' }, mm: 3 });
    expect((await balanceOn('07.06.2026')).zones[0]!.depletion).toBeCloseTo(modelDepletion - 3, 1);
    expect((await balanceOn('05.06.2026')).zones[0]!.rain).toBe(3);

    // Changed to 5 mm, on the zone by its name.
    const changed = await farmer.put(`${url}${gauge.id}/`, {
      kind: 'rain_gauge',
      date: '05.06.2026',
      area: { kind: 'zone', name: SEASON },
      mm: 5,
    });
    expect(changed.status).toBe(200);
    expect((await balanceOn('07.06.2026')).zones[0]!.depletion).toBeCloseTo(modelDepletion - 5, 1);

    // Water from another source, 4 mm on the 6th: 4 × 0.85 = 3.4 mm more in the root zone.
    const water = await record({ kind: 'irrigation', date: '06.06.2026', area: { kind: 'machine' }, mm: 4 });
    expect((await balanceOn('07.06.2026')).zones[0]!.depletion).toBeCloseTo(modelDepletion - 5 - 4 * EFFICIENCY, 1);
    const list = FarmRecordListSchema.parse((await farmer.get(url)).body);
    expect(list.map((item) => [item.id, item.date])).toEqual([
      [water.id, '06.06.2026'],
      [gauge.id, '05.06.2026'],
    ]);

    // Removed: the model's figures again.
    expect((await farmer.delete(`${url}${gauge.id}/`)).status).toBe(204);
    expect((await farmer.delete(`${url}${water.id}/`)).status).toBe(204);
    expect((await balanceOn('07.06.2026')).zones[0]!.depletion).toBeCloseTo(modelDepletion, 2);
    expect(FarmRecordListSchema.parse((await farmer.get(url)).body)).toEqual([]);
    expect((await farmer.delete(`${url}${gauge.id}/`)).body).toMatchObject({ code: 'record_not_found' });

    const log = LogListResponseSchema.parse((await farmer.get('/api/logs/')).body);
    const entries = log.data
      .filter((entry) => entry.eventType.startsWith('sprinkler_record_'))
      .map((entry) => [entry.eventType, entry.event, entry.details]);
    expect(entries).toEqual(
      expect.arrayContaining([
        ['sprinkler_record_added', '05.06.2026 · 3 mm', 'rain_gauge'],
        ['sprinkler_record_updated', `05.06.2026 · 5 mm · ${SEASON}`, 'rain_gauge'],
        ['sprinkler_record_added', '06.06.2026 · 4 mm', 'irrigation'],
        ['sprinkler_record_removed', `05.06.2026 · 5 mm · ${SEASON}`, 'rain_gauge'],
        ['sprinkler_record_removed', '06.06.2026 · 4 mm', 'irrigation'],
      ]),
    );
  });

  it("a probe's reading typed in replaces the probe's own for its day", async () => {
    const position = {
      lat: CENTRE.lat + 20 / METRES_PER_DEGREE,
      lng: CENTRE.lng + 30 / (METRES_PER_DEGREE * Math.cos((CENTRE.lat * Math.PI) / 180)),
    };
    // A probe reading 5 %, far below what the soil can hold: a broken probe.
    await t.app.weather.recordSoil(
      { machineId, deviceId: 'PROBE-BROKEN' },
      { v: 1, ts: localMidnight(7) + 10 * HOUR_MS, ...position, moisture: 5, depth: 30 },
    );
    const broken = (await balanceOn('07.06.2026')).probes.find((probe) => probe.id === 'PROBE-BROKEN');
    expect(broken).toMatchObject({ moisture: 5, used: true });
    expect(broken!.recorded).toBeUndefined();

    const typed = await record({ kind: 'probe', date: '07.06.2026', probe: 'PROBE-BROKEN', moisture: 22 });
    const balance = await balanceOn('07.06.2026');
    const probe = balance.probes.find((item) => item.id === 'PROBE-BROKEN')!;
    expect(probe).toMatchObject({ moisture: 22, used: true, recorded: true, zone: SEASON });
    // Eq. 87 with the typed reading: the zone's cells follow it.
    expect(balance.zones[0]!.depletion).toBeCloseTo(probe.probeDepletion!, 1);
    // Another day's balance keeps the probe's own reading.
    expect((await balanceOn('06.06.2026')).probes.find((item) => item.id === 'PROBE-BROKEN')).toBeUndefined();
    expect((await farmer.delete(`${url}${typed.id}/`)).status).toBe(204);

    const unknown = await farmer.post(url, { kind: 'probe', date: '07.06.2026', probe: 'NO-SUCH', moisture: 20 });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'probe_not_found', issues: [{ path: 'body.probe' }] });
  });

  it('refuses a day after today, negative or absurd water and an unknown area, in the page’s language', async () => {
    const today = localDate('Europe/Warsaw', Date.now());
    const tomorrow = dottedOfIsoDate(addDays(today, 1));
    const ask = (body: unknown, language = 'en') =>
      farmer.post(url, body, { headers: { 'accept-language': language } });
    const rain = (changes: object) => ({
      kind: 'rain_gauge',
      date: '05.06.2026',
      area: { kind: 'machine' },
      mm: 2,
      ...changes,
    });

    expect((await ask(rain({ date: tomorrow }), 'pl')).body).toEqual({
      code: 'record_date_in_future',
      message: 'Pomiar można zapisać najdalej na dziś: wybierz dzisiejszy lub wcześniejszy dzień',
    });
    expect((await ask(rain({ date: tomorrow }))).body).toEqual({
      code: 'record_date_in_future',
      message: 'A record can be made for today at the latest: choose today or an earlier day',
    });
    // Today is a day that can be recorded.
    const ofToday = await ask(rain({ date: dottedOfIsoDate(today) }));
    expect(ofToday.status).toBe(201);
    expect((await farmer.delete(`${url}${(ofToday.body as { id: number }).id}/`)).status).toBe(204);

    const negative = await ask(rain({ mm: -1 }));
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({
      code: 'validation_error',
      issues: [{ path: 'body.mm', message: 'The water cannot be negative' }],
    });
    const absurd = await ask({ ...rain({}), kind: 'irrigation', mm: 501 });
    expect(absurd.status).toBe(400);
    expect(absurd.body).toMatchObject({ issues: [{ path: 'body.mm' }] });

    const unknownZone = await ask(rain({ area: { kind: 'zone', name: 'Bananas' } }), 'pl');
    expect(unknownZone.status).toBe(400);
    expect(unknownZone.body).toMatchObject({
      code: 'record_area_not_found',
      message:
        'Pomiar wskazuje obszar, którego maszyna tego dnia nie ma: wybierz całą maszynę, strefę uprawy lub sektor wgranego programu',
      issues: [{ path: 'body.area.name' }],
    });
    // The season had not emerged on 20 May: no such zone that day.
    expect((await ask(rain({ date: '20.05.2026', area: { kind: 'zone', name: SEASON } }))).body).toMatchObject({
      code: 'record_area_not_found',
    });
    // No program loaded: no sector.
    expect((await ask(rain({ area: { kind: 'sector', name: 'Sector 1' } }))).body).toMatchObject({
      code: 'record_area_not_found',
    });
    expect(FarmRecordListSchema.parse((await farmer.get(url)).body)).toEqual([]);
  });

  it('are in the OpenAPI document', async () => {
    const response = await farmer.get('/api/docs/json');
    expect(response.status).toBe(200);
    const paths = (response.body as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(Object.keys(paths['/api/sprinkler/{id}/records/']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/sprinkler/{id}/records/{recordId}/']!).sort()).toEqual(['delete', 'put']);
    expect(JSON.stringify(paths['/api/sprinkler/{id}/records/']!.post)).toContain('rain_gauge');
  });

  it('a watcher sees the records and may not change them; a machine not granted is not found', async () => {
    const kept = await record({ kind: 'irrigation', date: '03.06.2026', area: { kind: 'machine' }, mm: 12 });
    expect(FarmRecordListSchema.parse((await watcher.get(url)).body)).toEqual([kept]);
    const body = { kind: 'rain_gauge', date: '05.06.2026', area: { kind: 'machine' }, mm: 2 };
    const refused = await watcher.post(url, body, { headers: { 'accept-language': 'pl' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 'watch_only',
      message: 'Możesz tylko podglądać tę maszynę: poproś administratora o sterowanie',
    });
    expect((await watcher.put(`${url}${kept.id}/`, body)).status).toBe(403);
    expect((await watcher.delete(`${url}${kept.id}/`)).status).toBe(403);
    for (const answer of [await stranger.get(url), await stranger.post(url, body)]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'sprinkler_not_found' });
    }
    expect(FarmRecordListSchema.parse((await farmer.get(url)).body)).toEqual([kept]);
  });
});
