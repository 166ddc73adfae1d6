import { CropSeasonListSchema, type CropSeason, type GeoJson, LogListResponseSchema } from '@pivot/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cropSeasons } from '../../src/modules/crop-seasons/crop-seasons.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant, squareSector } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

/** A field with two crop areas and a boundary, as an administrator draws it (docs/simulator.md). */
const AREA_MAP: GeoJson = {
  type: 'FeatureCollection',
  features: [
    { ...squareSector('field', 0), properties: { kind: 'field', name: 'Pole' } },
    { ...squareSector('north', 0), properties: { kind: 'crop', crop: 'maize', name: 'Kukurydza' } },
    { ...squareSector('south', 0), properties: { kind: 'crop', crop: 'potatoes', name: 'Ziemniaki' } },
  ],
};

const MAIZE_2026: CropSeason = {
  name: 'Kukurydza 2026',
  polygon: 'Kukurydza',
  crop: 'maize-grain',
  emergence: '05.05.2026',
  soil: 'loamy-sand',
};

const POTATO_2026: CropSeason = {
  name: 'Ziemniaki 2026',
  polygon: 'Ziemniaki',
  crop: { kc: [0.5, 1.15, 0.75], stages: [30, 35, 50, 30], rootDepth: [0.15, 0.4], p: 0.35 },
  emergence: '20.04.2026',
  soil: { fieldCapacity: 0.23, wiltingPoint: 0.11 },
  p: 0.4,
  efficiency: 0.8,
};

const WHOLE_CIRCLE_2025: CropSeason = {
  name: 'Pszenica 2025',
  polygon: null,
  crop: 'winter-wheat',
  emergence: '15.10.2025',
  soil: 'silt-loam',
};

type Issue = { path: string; message: string };

/** The order the API answers seasons in: by emergence date (these tests' names never tie). */
function byEmergence(a: CropSeason, b: CropSeason): number {
  const key = (season: CropSeason) => season.emergence.split('.').reverse().join('');
  return key(a).localeCompare(key(b));
}

describe('crop seasons', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function farmerWithMachine() {
    const machine = await buildSprinkler(t, { areaMap: AREA_MAP });
    const farmer = await t.signedInUser();
    await grant(t, machine.id, farmer.user.id);
    return { machine, client: farmer.client, url: `/api/sprinkler/${machine.id}/crop-seasons/` };
  }

  async function put(client: ApiClient, url: string, body: unknown, query?: Record<string, string>) {
    return client.put(url, body, query ? { query } : {});
  }

  it('answers no seasons for a machine that has none', async () => {
    const { client, url } = await farmerWithMachine();
    const response = await client.get(url);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('stores the seasons a PUT gives and answers them, oldest first, on PUT and GET alike', async () => {
    const { client, url } = await farmerWithMachine();
    const stored = await put(client, url, [MAIZE_2026, POTATO_2026, WHOLE_CIRCLE_2025]);
    expect(stored.status).toBe(200);
    const expected = [WHOLE_CIRCLE_2025, POTATO_2026, MAIZE_2026];
    expect(stored.body).toEqual(expected);
    const read = await client.get(url);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expected);
    expect(CropSeasonListSchema.parse(read.body)).toEqual(expected);
  });

  it('replaces the seasons of the years it names and keeps every other year', async () => {
    const { client, url } = await farmerWithMachine();
    await put(client, url, [WHOLE_CIRCLE_2025, MAIZE_2026, POTATO_2026]);

    const sugarBeet: CropSeason = { ...MAIZE_2026, name: 'Burak 2026', crop: 'sugar-beet' };
    const response = await put(client, url, [sugarBeet]);
    expect(response.status).toBe(200);
    // 2026 is now only what this PUT gave (the potatoes are gone); 2025 is as it was.
    expect(response.body).toEqual([WHOLE_CIRCLE_2025, sugarBeet]);
    expect((await client.get(url)).body).toEqual([WHOLE_CIRCLE_2025, sugarBeet]);
  });

  it('keeps a season’s identity while its year and area stay, so its records can follow it', async () => {
    const { machine, client, url } = await farmerWithMachine();
    await put(client, url, [MAIZE_2026]);
    const idsBefore = await seasonIds(machine.id);
    await put(client, url, [{ ...MAIZE_2026, name: 'Kukurydza na ziarno', emergence: '08.05.2026' }]);
    expect(await seasonIds(machine.id)).toEqual(idsBefore);
  });

  it('empties a year named by ?year= and leaves the others; an empty body alone changes nothing', async () => {
    const { client, url } = await farmerWithMachine();
    await put(client, url, [WHOLE_CIRCLE_2025, MAIZE_2026]);
    expect((await put(client, url, [])).body).toEqual([WHOLE_CIRCLE_2025, MAIZE_2026]);
    const emptied = await put(client, url, [], { year: '2026' });
    expect(emptied.status).toBe(200);
    expect(emptied.body).toEqual([WHOLE_CIRCLE_2025]);
  });

  it('keeps last year’s seasons readable after the map’s crop areas were redrawn', async () => {
    const { machine, client, url } = await farmerWithMachine();
    const maize2025: CropSeason = { ...MAIZE_2026, name: 'Kukurydza 2025', emergence: '06.05.2025' };
    await put(client, url, [maize2025]);
    const admin = await t.adminClient();
    const redrawn: GeoJson = {
      type: 'FeatureCollection',
      features: [{ ...squareSector('east', 0), properties: { kind: 'crop', crop: 'wheat', name: 'Pszenica' } }],
    };
    expect((await admin.patch(`/api/sprinkler/${machine.id}/`, { areaMap: redrawn })).status).toBe(200);

    const wheat2026: CropSeason = { ...MAIZE_2026, name: 'Pszenica 2026', polygon: 'Pszenica', crop: 'spring-wheat' };
    const response = await put(client, url, [wheat2026]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([maize2025, wheat2026]);
    // The old area no longer takes a season of this year.
    expect((await put(client, url, [{ ...MAIZE_2026 }])).body).toMatchObject({ code: 'crop_area_not_found' });
  });

  it('serialises two PUTs for one machine: the year ends as one of them whole', async () => {
    // On PostgreSQL (DATABASE_URL) both would read the year empty and the second insert would break the
    // unique key without the service's lock; PGlite runs one transaction at a time anyway.
    const { client, url } = await farmerWithMachine();
    const first = [MAIZE_2026, POTATO_2026];
    const second = [{ ...MAIZE_2026, name: 'Kukurydza późna', emergence: '20.05.2026' }];
    const answers = await Promise.all([put(client, url, first), put(client, url, second)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const stored = (await client.get(url)).body as CropSeason[];
    expect([first, second].map((seasons) => [...seasons].sort(byEmergence))).toContainEqual(stored);
  });

  it('lets an administrator set the seasons of any machine', async () => {
    const machine = await buildSprinkler(t, { areaMap: AREA_MAP });
    const admin = await t.adminClient();
    const response = await put(admin, `/api/sprinkler/${machine.id}/crop-seasons/`, [WHOLE_CIRCLE_2025]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([WHOLE_CIRCLE_2025]);
  });

  it('refuses a ?year= that is not a year', async () => {
    const { client, url } = await farmerWithMachine();
    const response = await put(client, url, [], { year: 'last' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'validation_error',
      issues: [{ path: 'querystring.year', message: 'Expected a year such as 2026' }],
    });
  });

  it('logs each change with the years it replaced', async () => {
    const { machine, client, url } = await farmerWithMachine();
    await put(client, url, [MAIZE_2026, WHOLE_CIRCLE_2025]);
    const log = LogListResponseSchema.parse((await client.get('/api/logs/')).body);
    const entry = log.data.find((item) => item.eventType === 'sprinkler_crop_seasons_updated');
    expect(entry).toMatchObject({ event: '2025, 2026', sprinklerName: machine.name });
  });

  it.each<[string, unknown, Issue]>([
    [
      'an unknown crop',
      [{ ...MAIZE_2026, crop: 'banana' }],
      { path: 'body.0.crop', message: expect.stringContaining('Unknown crop') as unknown as string },
    ],
    [
      'a date that is not dd.mm.yyyy',
      [{ ...MAIZE_2026, emergence: '2026-05-05' }],
      { path: 'body.0.emergence', message: 'Expected a date as dd.mm.yyyy' },
    ],
    [
      'a day that is not in the calendar',
      [{ ...MAIZE_2026, emergence: '31.04.2026' }],
      { path: 'body.0.emergence', message: 'Not a calendar date' },
    ],
    [
      'field capacity at the wilting point',
      [{ ...MAIZE_2026, soil: { fieldCapacity: 0.2, wiltingPoint: 0.2 } }],
      { path: 'body.0.soil.fieldCapacity', message: 'Field capacity must be above the wilting point' },
    ],
    [
      'an unknown soil',
      [{ ...MAIZE_2026, soil: 'peat' }],
      { path: 'body.0.soil', message: expect.stringContaining('Unknown soil') as unknown as string },
    ],
    [
      'a water content in percent',
      [{ ...MAIZE_2026, soil: { fieldCapacity: 25, wiltingPoint: 12 } }],
      {
        path: 'body.0.soil.fieldCapacity',
        message: 'A water content is a fraction of the volume from 0 to 1 (0.25 for 25 %)',
      },
    ],
    [
      'an efficiency in percent',
      [{ ...MAIZE_2026, efficiency: 85 }],
      {
        path: 'body.0.efficiency',
        message: 'The application efficiency is a fraction above 0 and at most 1 (0.85 for 85 %)',
      },
    ],
    [
      'a custom crop whose roots start deeper than they end',
      [{ ...POTATO_2026, crop: { ...(POTATO_2026.crop as object), rootDepth: [0.5, 0.3] } }],
      { path: 'body.0.crop.rootDepth', message: 'The rooting depth at emergence cannot exceed the deepest' },
    ],
    [
      'two seasons of one year on the same area',
      [MAIZE_2026, { ...MAIZE_2026, name: 'Druga kukurydza', emergence: '01.07.2026' }],
      { path: 'body.1.polygon', message: 'This crop area already has a season in this year' },
    ],
  ])('refuses %s with 400 and says where', async (_, body, issue) => {
    const { client, url } = await farmerWithMachine();
    const response = await put(client, url, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_error', issues: expect.arrayContaining([issue]) });
    expect((await client.get(url)).body).toEqual([]);
  });

  it('refuses a season on a crop area the machine’s map does not have, in the page’s language', async () => {
    const { client, url } = await farmerWithMachine();
    const response = await put(client, url, [MAIZE_2026, { ...POTATO_2026, polygon: 'Buraki' }], undefined);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'crop_area_not_found',
      message: 'Sezon uprawy wskazuje obszar uprawy, którego nie ma na mapie maszyny',
      issues: [{ path: 'body.1.polygon', message: 'The machine\'s map has no crop area named "Buraki"' }],
    });
    // The field's boundary is not a crop area either.
    const boundary = await put(client, url, [{ ...MAIZE_2026, polygon: 'Pole' }]);
    expect(boundary.status).toBe(400);
    expect((await client.get(url)).body).toEqual([]);
  });

  it('answers 404 for another user’s machine, as if it did not exist, and stores nothing', async () => {
    const theirs = await buildSprinkler(t, { areaMap: AREA_MAP });
    const { client } = await t.signedInUser();
    const url = `/api/sprinkler/${theirs.id}/crop-seasons/`;
    expect((await client.get(url)).status).toBe(404);
    const response = await put(client, url, [MAIZE_2026]);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'sprinkler_not_found' });
    const admin = await t.adminClient();
    expect((await admin.get(url)).body).toEqual([]);
  });

  it('describes both routes in the OpenAPI document under advice', async () => {
    const response = await t.client().get('/api/docs/json');
    const paths = (response.body as { paths: Record<string, Record<string, { tags?: string[] }>> }).paths;
    const route = paths['/api/sprinkler/{id}/crop-seasons/'];
    expect(route?.get?.tags).toEqual(['advice']);
    expect(route?.put?.tags).toEqual(['advice']);
    // The body's schema is the contract's: the crop keys, the tuples, the query's year.
    const put = JSON.stringify(route?.put);
    expect(put).toContain('"maize-grain"');
    expect(put).toContain('"silty-clay-loam"');
    expect(put).toContain('"year"');
  });

  async function seasonIds(sprinklerId: number): Promise<number[]> {
    const rows = await t.database.db
      .select({ id: cropSeasons.id })
      .from(cropSeasons)
      .where(eq(cropSeasons.sprinklerId, sprinklerId))
      .orderBy(asc(cropSeasons.id));
    return rows.map((row) => row.id);
  }
});
