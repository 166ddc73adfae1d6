import { AreaMapExportSchema, type CropSeason, type GeoJson } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSprinkler, grant, squareSector } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

/** A field with two crop areas and a boundary, as an administrator draws it (docs/simulator.md). */
const AREA_MAP: GeoJson = {
  type: 'FeatureCollection',
  features: [
    { ...squareSector('field', 0), properties: { kind: 'field', name: 'Pole' } },
    { ...squareSector('north', 0, 17.101), properties: { kind: 'crop', crop: 'maize', name: 'Kukurydza' } },
    { ...squareSector('south', 0, 17.102), properties: { kind: 'crop', crop: 'potatoes', name: 'Ziemniaki' } },
  ],
};

const MAIZE_2026: CropSeason = {
  name: 'Kukurydza 2026',
  polygon: 'Kukurydza',
  crop: 'maize-grain',
  emergence: '05.05.2026',
  soil: 'loamy-sand',
};
const MAIZE_2025: CropSeason = { ...MAIZE_2026, name: 'Kukurydza 2025', emergence: '02.05.2025', p: 0.5 };
const POTATO_2026: CropSeason = {
  name: 'Ziemniaki 2026',
  polygon: 'Ziemniaki',
  crop: { kc: [0.5, 1.15, 0.75], stages: [30, 35, 50, 30], rootDepth: [0.15, 0.4], p: 0.35 },
  emergence: '20.04.2026',
  soil: { fieldCapacity: 0.23, wiltingPoint: 0.11 },
  efficiency: 0.8,
};
const WHOLE_CIRCLE_2024: CropSeason = {
  name: 'Pszenica 2024',
  polygon: null,
  crop: 'winter-wheat',
  emergence: '15.10.2024',
  soil: 'silt-loam',
};
const SEASONS = [WHOLE_CIRCLE_2024, MAIZE_2025, POTATO_2026, MAIZE_2026];

type Collection = Extract<GeoJson, { type: 'FeatureCollection' }>;

describe('the area map as a file, with its crop seasons', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function farmerWithSeasons(level: 'control' | 'watch' = 'control') {
    const machine = await buildSprinkler(t, { areaMap: AREA_MAP });
    const admin = await t.adminClient();
    expect((await admin.put(`/api/sprinkler/${machine.id}/crop-seasons/`, SEASONS)).status).toBe(200);
    const farmer = await t.signedInUser();
    await grant(t, machine.id, farmer.user.id, level);
    const base = `/api/sprinkler/${machine.id}`;
    return { machine, client: farmer.client, fileUrl: `${base}/area-map/`, seasonsUrl: `${base}/crop-seasons/` };
  }

  it('writes each crop area’s seasons on its feature and the whole circle’s on the collection', async () => {
    const { client, fileUrl } = await farmerWithSeasons('watch');
    const response = await client.get(fileUrl);
    expect(response.status).toBe(200);
    const file = AreaMapExportSchema.parse(response.body);
    expect(file.features.map((feature) => feature.properties)).toEqual([
      { kind: 'field', name: 'Pole' },
      {
        kind: 'crop',
        crop: 'maize',
        name: 'Kukurydza',
        cropSeasons: [
          { name: 'Kukurydza 2025', crop: 'maize-grain', emergence: '02.05.2025', soil: 'loamy-sand', p: 0.5 },
          { name: 'Kukurydza 2026', crop: 'maize-grain', emergence: '05.05.2026', soil: 'loamy-sand' },
        ],
      },
      {
        kind: 'crop',
        crop: 'potatoes',
        name: 'Ziemniaki',
        cropSeasons: [
          {
            name: 'Ziemniaki 2026',
            crop: POTATO_2026.crop,
            emergence: '20.04.2026',
            soil: POTATO_2026.soil,
            efficiency: 0.8,
          },
        ],
      },
    ]);
    expect(file.cropSeasons).toEqual([WHOLE_CIRCLE_2024]);
    expect(file.features.map((feature) => feature.geometry)).toEqual(
      (AREA_MAP as Collection).features.map((feature) => feature.geometry),
    );
  });

  it('gives back identical seasons and map when the exported file is imported on another machine', async () => {
    const { client, fileUrl } = await farmerWithSeasons();
    const file = (await client.get(fileUrl)).body;
    const other = await farmerWithSeasons();
    const admin = await t.adminClient();
    await admin.put(other.seasonsUrl, [], { query: { year: '2026' } });
    await admin.put(other.seasonsUrl, [], { query: { year: '2025' } });
    await admin.put(other.seasonsUrl, [], { query: { year: '2024' } });
    expect((await other.client.get(other.seasonsUrl)).body).toEqual([]);

    const imported = await other.client.put(other.fileUrl, file);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ areaMap: AREA_MAP, seasons: SEASONS });
    expect((await other.client.get(other.seasonsUrl)).body).toEqual(SEASONS);
    expect((await other.client.get(other.fileUrl)).body).toEqual(file);
    const detail = await other.client.get(`/api/sprinkler/${other.machine.id}/`);
    expect((detail.body as { areaMap: GeoJson }).areaMap).toEqual(AREA_MAP);
  });

  it('replaces the seasons of the years the file has on its areas, and keeps the rest', async () => {
    const { client, fileUrl, seasonsUrl } = await farmerWithSeasons();
    // A redrawn map: the potato area is gone, the maize area carries a new 2026 season only.
    const redrawn = {
      type: 'FeatureCollection',
      features: [
        (AREA_MAP as Collection).features[0],
        {
          ...(AREA_MAP as Collection).features[1],
          properties: {
            kind: 'crop',
            name: 'Kukurydza',
            cropSeasons: [{ name: 'Kukurydza późna', crop: 'maize-grain', emergence: '20.05.2026', soil: 'sand' }],
          },
        },
      ],
    };
    const response = await client.put(fileUrl, redrawn);
    expect(response.status).toBe(200);
    const late: CropSeason = {
      name: 'Kukurydza późna',
      polygon: 'Kukurydza',
      crop: 'maize-grain',
      emergence: '20.05.2026',
      soil: 'sand',
    };
    // 2026 replaced on the map's areas; the potato area's 2026 season kept as a record; 2025 and 2024 untouched.
    expect((await client.get(seasonsUrl)).body).toEqual([WHOLE_CIRCLE_2024, MAIZE_2025, POTATO_2026, late]);
  });

  it('leaves every season alone when the file carries none', async () => {
    const { client, fileUrl } = await farmerWithSeasons();
    const plain = { type: 'FeatureCollection', features: [(AREA_MAP as Collection).features[0]] };
    const response = await client.put(fileUrl, plain);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ areaMap: plain, seasons: SEASONS });
  });

  it('refuses bad season properties with where they lie, in the page’s language, and stores nothing', async () => {
    const { client, fileUrl, seasonsUrl } = await farmerWithSeasons();
    const features = (AREA_MAP as Collection).features;
    const bad = {
      type: 'FeatureCollection',
      features: [
        { ...features[0], properties: { kind: 'field', name: 'Pole', cropSeasons: [] } },
        {
          ...features[1],
          properties: {
            kind: 'crop',
            name: 'Nowa kukurydza',
            cropSeasons: [{ ...MAIZE_2026, polygon: undefined, soil: { fieldCapacity: 25, wiltingPoint: 12 } }],
          },
        },
      ],
      cropSeasons: [{ ...WHOLE_CIRCLE_2024, crop: 'rice' }],
    };
    const response = await client.put(fileUrl, bad, { headers: { 'accept-language': 'en' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'invalid_crop_seasons',
      message: "The map file's crop seasons are not valid: nothing was imported",
    });
    const issues = (response.body as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((issue) => issue.path)).toEqual([
      'body.features.0.properties.cropSeasons',
      'body.features.1.properties.cropSeasons.0.soil.fieldCapacity',
      'body.features.1.properties.cropSeasons.0.soil.wiltingPoint',
      'body.cropSeasons.0.crop',
    ]);
    expect(issues[1]!.message).toContain('0.25 for 25 %');
    const polish = await client.put(fileUrl, bad);
    expect(polish.body).toMatchObject({
      message: 'Sezony upraw zapisane w pliku mapy są nieprawidłowe: niczego nie zaimportowano',
    });
    // A whole-circle list naming an area the file's map does not have.
    const unknownArea = { ...AREA_MAP, cropSeasons: [{ ...WHOLE_CIRCLE_2024, polygon: 'Buraki' }] };
    const refused = await client.put(fileUrl, unknownArea);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'crop_area_not_found',
      issues: [{ path: 'body.cropSeasons.0.polygon', message: 'The map has no crop area named "Buraki"' }],
    });
    expect((await client.get(seasonsUrl)).body).toEqual(SEASONS);
    expect((await client.get(fileUrl)).body).toMatchObject({ features: features.map(() => expect.anything()) });
  });

  it('lets a watcher export but not import', async () => {
    const { client, fileUrl } = await farmerWithSeasons('watch');
    const file = (await client.get(fileUrl)).body;
    const response = await client.put(fileUrl, file);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'watch_only' });
  });

  it('logs an import: the map, and the years whose seasons it replaced', async () => {
    const { client, fileUrl } = await farmerWithSeasons();
    await client.put(fileUrl, (await client.get(fileUrl)).body);
    const log = (await (await t.adminClient()).get('/api/logs/')).body as {
      data: { eventType: string; details: string }[];
    };
    const recent = log.data.slice(0, 2).map((entry) => entry.eventType);
    expect(recent.sort()).toEqual(['sprinkler_crop_seasons_updated', 'sprinkler_updated']);
  });
});
