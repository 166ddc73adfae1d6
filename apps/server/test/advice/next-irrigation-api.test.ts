import { NextIrrigationListSchema, WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '../../src/time/local-day';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant, squareSector } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';
import { dotted, expectTomorrowRefused, warmDryDay } from '../support/weather-days';

const TIME_ZONE = 'Europe/Warsaw';
const DAYS = 4;

const dayReadings = (date: string) => warmDryDay('WS-NEXT', date, TIME_ZONE);

describe('next irrigation of the machines table', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let stranger: ApiClient;
  let seasonal: number;
  let plain: number;
  const today = localDate(TIME_ZONE, Date.now());

  // Deep roots on loam: water due in a week or so; potatoes' shallow roots on sand: due at once.
  const DEEP_ROOTS = { kc: [0.5, 1.1, 0.6], stages: [30, 40, 50, 30], rootDepth: [0.5, 1.0], p: 0.5 };
  const season = (crop: unknown, soil: string) => [
    { name: 'Field', polygon: null, crop, emergence: dotted(addDays(today, -DAYS)), soil },
  ];

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    seasonal = (await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 100 })).id;
    plain = (await buildSprinkler(t, { lat: '52.300000', lng: '17.201000', armLength: 100 })).id;
    const user = await t.signedInUser();
    farmer = user.client;
    await grant(t, seasonal, user.user.id);
    await grant(t, plain, user.user.id);
    stranger = (await t.signedInUser()).client;
    for (let day = DAYS; day >= 1; day -= 1) {
      await t.database.db.insert(weatherReadings).values(dayReadings(addDays(today, -day)));
    }
    const put = await farmer.put(`/api/sprinkler/${seasonal}/crop-seasons/`, season(DEEP_ROOTS, 'loam'));
    expect(put.status).toBe(200);
  });
  afterAll(() => t.close());

  async function nextOf(client: ApiClient) {
    const response = await client.get('/api/sprinkler/next-irrigation/');
    expect(response.status).toBe(200);
    return NextIrrigationListSchema.parse(response.body);
  }

  async function zonesNext(): Promise<string | null> {
    const response = await farmer.get(`/api/sprinkler/${seasonal}/water-balance/`);
    const [zone] = WaterBalanceSchema.parse(response.body).zones;
    return zone!.nextIrrigation;
  }

  it("gives a machine with a season its zones' next irrigation, and none to a machine without", async () => {
    const answer = await nextOf(farmer);
    expect(answer).toEqual([{ id: seasonal, nextIrrigation: await zonesNext() }]);
    expect(answer[0]!.nextIrrigation).not.toBeNull();
    expect(answer[0]!.nextIrrigation).not.toBe(dotted(today));
    expect(answer.some((machine) => machine.id === plain)).toBe(false);
  });

  it('answers for a day asked for up to today, and refuses a day after it, in the page’s language', async () => {
    const ask = (date: string, language: string) =>
      farmer.get('/api/sprinkler/next-irrigation/', {
        query: { date: dotted(date) },
        headers: { 'accept-language': language },
      });
    const yesterday = await ask(addDays(today, -1), 'en');
    expect(yesterday.status).toBe(200);
    expect(NextIrrigationListSchema.parse(yesterday.body)).toEqual(await nextOf(farmer));
    expect((await ask(today, 'en')).status).toBe(200);
    await expectTomorrowRefused(ask, today);
  });

  it('shows nothing of machines the user is not granted', async () => {
    expect(await nextOf(stranger)).toEqual([]);
  });

  it('answers an unchanged list 304, and a changed season at once', async () => {
    const first = await farmer.get('/api/sprinkler/next-irrigation/');
    const etag = first.headers.etag as string;
    const again = await farmer.get('/api/sprinkler/next-irrigation/', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    // Another crop and soil: the answer follows at once, though the day has not changed.
    const before = NextIrrigationListSchema.parse(first.body)[0]!.nextIrrigation;
    expect((await farmer.put(`/api/sprinkler/${seasonal}/crop-seasons/`, season('potato', 'sand'))).status).toBe(200);
    const after = (await nextOf(farmer))[0]!.nextIrrigation;
    expect(after).toBe(await zonesNext());
    expect(after).toBe(dotted(today));
    expect(after).not.toBe(before);
  });

  it('follows a redrawn area map at once', async () => {
    // Potatoes on sand in a crop area (due today), deep roots on loam on the rest of the circle.
    const areaMap = {
      type: 'FeatureCollection' as const,
      features: [{ ...squareSector('Ziemniaki', 0, 17.203, 52.3), properties: { kind: 'crop', name: 'Ziemniaki' } }],
    };
    const mapped = (await buildSprinkler(t, { lat: '52.300000', lng: '17.203000', armLength: 100, areaMap })).id;
    const user = await t.signedInUser();
    await grant(t, mapped, user.user.id);
    const seasons = [
      ...season(DEEP_ROOTS, 'loam'),
      { ...season('potato', 'sand')[0]!, name: 'Ziemniaki', polygon: 'Ziemniaki' },
    ];
    expect((await user.client.put(`/api/sprinkler/${mapped}/crop-seasons/`, seasons)).status).toBe(200);
    expect(await nextOf(user.client)).toEqual([{ id: mapped, nextIrrigation: dotted(today) }]);

    // The crop area erased from the map: its season holds no cells, the whole circle's decides.
    const admin = await t.adminClient();
    const erased = { type: 'FeatureCollection', features: [] };
    expect((await admin.patch(`/api/sprinkler/${mapped}/`, { areaMap: erased })).status).toBe(200);
    const [after] = await nextOf(user.client);
    expect(after!.nextIrrigation).not.toBe(dotted(today));
    const balance = WaterBalanceSchema.parse((await user.client.get(`/api/sprinkler/${mapped}/water-balance/`)).body);
    expect(balance.zones.map((zone) => zone.name)).toEqual(['Field']);
    expect(after!.nextIrrigation).toBe(balance.zones[0]!.nextIrrigation);
  });

  it("follows a farm record at once: a rain gauge's reading of yesterday puts the date off", async () => {
    const gauged = (await buildSprinkler(t, { lat: '52.300000', lng: '17.205000', armLength: 100 })).id;
    const user = await t.signedInUser();
    await grant(t, gauged, user.user.id);
    expect((await user.client.put(`/api/sprinkler/${gauged}/crop-seasons/`, season(DEEP_ROOTS, 'loam'))).status).toBe(
      200,
    );
    const [before] = await nextOf(user.client);
    const recorded = await user.client.post(`/api/sprinkler/${gauged}/records/`, {
      kind: 'rain_gauge',
      date: dotted(addDays(today, -1)),
      area: { kind: 'machine' },
      mm: 40,
    });
    expect(recorded.status).toBe(201);
    const [after] = await nextOf(user.client);
    const balance = WaterBalanceSchema.parse((await user.client.get(`/api/sprinkler/${gauged}/water-balance/`)).body);
    expect(after!.nextIrrigation).toBe(balance.zones[0]!.nextIrrigation);
    expect(after!.nextIrrigation).not.toBe(before!.nextIrrigation);
  });
});
