import { describe, expect, it } from 'vitest';
import {
  CROP_KEYS,
  type CropSeason,
  CropSeasonSchema,
  CropSeasonsQuerySchema,
  CropSeasonsSchema,
  CustomCropSchema,
  MAX_SEASONS_PER_REQUEST,
  SOIL_TEXTURE_KEYS,
  cropAreaNames,
  seasonYear,
} from '../src/crop-seasons';
import type { GeoJson } from '../src/geojson';
import { expectUnknownKeyRejected, issuesOf, messagesOf, square } from './support';

const SEASON: CropSeason = {
  name: 'Kukurydza 2026',
  polygon: 'Kukurydza',
  crop: 'maize-grain',
  emergence: '05.05.2026',
  soil: 'loamy-sand',
};

const CUSTOM_CROP = { kc: [0.5, 1.15, 0.75], stages: [30, 35, 50, 30], rootDepth: [0.15, 0.4], p: 0.35 };

describe('CropSeasonSchema', () => {
  it('accepts a season of the tables, and one with its own crop, soil, p and efficiency', () => {
    expect(CropSeasonSchema.parse(SEASON)).toEqual(SEASON);
    const own = {
      ...SEASON,
      polygon: null,
      crop: CUSTOM_CROP,
      soil: { fieldCapacity: 0.32, wiltingPoint: 0.15 },
      p: 0.5,
      efficiency: 1,
    };
    expect(CropSeasonSchema.parse(own)).toEqual(own);
  });

  it('accepts every key of the crop and soil tables', () => {
    for (const crop of CROP_KEYS) expect(CropSeasonSchema.safeParse({ ...SEASON, crop }).success, crop).toBe(true);
    for (const soil of SOIL_TEXTURE_KEYS)
      expect(CropSeasonSchema.safeParse({ ...SEASON, soil }).success, soil).toBe(true);
  });

  it('refuses unknown keys of a season, a custom crop and a soil', () => {
    expectUnknownKeyRejected(CropSeasonSchema, SEASON);
    expectUnknownKeyRejected(CustomCropSchema, CUSTOM_CROP);
  });

  it('names the choices when a crop or a soil key is unknown', () => {
    expect(issuesOf(CropSeasonSchema, { ...SEASON, crop: 'maize' })).toEqual([
      expect.objectContaining({
        path: 'crop',
        message: expect.stringMatching(/^Unknown crop: choose one of maize-grain, /),
      }),
    ]);
    expect(issuesOf(CropSeasonSchema, { ...SEASON, soil: 'peat' })).toEqual([
      expect.objectContaining({ path: 'soil', message: expect.stringMatching(/^Unknown soil: choose one of sand, /) }),
    ]);
    expect(messagesOf(CropSeasonSchema, { ...SEASON, crop: 7 })).toEqual([
      'Choose a crop of the table or give its own kc, stages, rootDepth and p',
    ]);
  });

  it('points at the value of a custom crop that is out of bounds', () => {
    const crop = (change: Record<string, unknown>) => ({ ...SEASON, crop: { ...CUSTOM_CROP, ...change } });
    expect(issuesOf(CropSeasonSchema, crop({ kc: [0, 1.15, 0.75] }))).toEqual([
      expect.objectContaining({ path: 'crop.kc.0', message: 'A crop coefficient Kc must be above 0' }),
    ]);
    // A custom crop of the wrong shape: the union tells its own first problem, with where it lies.
    expect(issuesOf(CropSeasonSchema, crop({ kc: [0.5, 1.15] }))).toEqual([
      expect.objectContaining({ path: 'crop', message: 'kc: Give Kc as [initial, mid-season, end]' }),
    ]);
    expect(messagesOf(CropSeasonSchema, { ...SEASON, crop: { kc: [0.5, 1.15, 0.75] } })).toEqual([
      'stages: Give the stages as [initial, development, mid-season, late season] days',
    ]);
    expect(messagesOf(CropSeasonSchema, { ...SEASON, soil: { fieldCapacity: 0.3 } })).toEqual([
      'wiltingPoint: A water content should be a number',
    ]);
    // A value of the wrong kind (not a whole number) also leaves the union undecided.
    expect(issuesOf(CropSeasonSchema, crop({ stages: [30, 35.5, 50, 30] }))).toEqual([
      expect.objectContaining({
        path: 'crop',
        message: 'stages.1: A growth stage length should be a whole number of days',
      }),
    ]);
    expect(issuesOf(CropSeasonSchema, crop({ stages: [100, 100, 100, 100] }))).toEqual([
      expect.objectContaining({ path: 'crop.stages', message: 'A season lasts at most 366 days' }),
    ]);
    expect(issuesOf(CropSeasonSchema, crop({ rootDepth: [0.15, 4] }))).toEqual([
      expect.objectContaining({ path: 'crop.rootDepth.1', message: 'A rooting depth is at most 3 m' }),
    ]);
    expect(issuesOf(CropSeasonSchema, crop({ p: 0.9 }))).toEqual([
      expect.objectContaining({ path: 'crop.p', message: 'The allowed depletion p is at most 0.8' }),
    ]);
  });

  it('refuses a soil whose field capacity is not above its wilting point, or given in percent', () => {
    expect(issuesOf(CropSeasonSchema, { ...SEASON, soil: { fieldCapacity: 0.1, wiltingPoint: 0.2 } })).toEqual([
      expect.objectContaining({
        path: 'soil.fieldCapacity',
        message: 'Field capacity must be above the wilting point',
      }),
    ]);
    expect(messagesOf(CropSeasonSchema, { ...SEASON, soil: { fieldCapacity: 32, wiltingPoint: 0.15 } })).toEqual([
      'A water content is a fraction of the volume from 0 to 1 (0.25 for 25 %)',
    ]);
  });

  it.each([
    [0, 'The application efficiency is a fraction above 0 and at most 1 (0.85 for 85 %)'],
    [85, 'The application efficiency is a fraction above 0 and at most 1 (0.85 for 85 %)'],
    ['0.85', 'The application efficiency should be a number'],
  ])('refuses an efficiency of %j', (efficiency, message) => {
    expect(messagesOf(CropSeasonSchema, { ...SEASON, efficiency })).toEqual([message]);
  });

  it.each([
    ['5.5.2026', 'Expected a date as dd.mm.yyyy'],
    ['29.02.2026', 'Not a calendar date'],
    ['01.05.1999', 'The emergence date must lie in the years 2000–2100'],
  ])('refuses the emergence %s', (emergence, message) => {
    expect(messagesOf(CropSeasonSchema, { ...SEASON, emergence })).toContain(message);
  });

  it('asks for a name and an area name that are not blank', () => {
    expect(messagesOf(CropSeasonSchema, { ...SEASON, name: '  ' })).toEqual(['Enter the season name']);
    const { name: _, ...nameless } = SEASON;
    expect(messagesOf(CropSeasonSchema, nameless)).toEqual(['Enter the season name']);
    expect(messagesOf(CropSeasonSchema, { ...SEASON, polygon: '' })).toEqual([
      'Name a crop area of the machine’s map, or null for the whole circle',
    ]);
  });
});

describe('CropSeasonsSchema', () => {
  it('takes one season per area and year, the whole circle counting as one area', () => {
    const seasons = [
      SEASON,
      { ...SEASON, name: 'Kukurydza 2025', emergence: '01.05.2025' },
      { ...SEASON, name: 'Reszta', polygon: null },
    ];
    expect(CropSeasonsSchema.parse(seasons)).toEqual(seasons);
    expect(issuesOf(CropSeasonsSchema, [...seasons, { ...SEASON, name: 'Druga' }])).toEqual([
      expect.objectContaining({ path: '3.polygon', message: 'This crop area already has a season in this year' }),
    ]);
    expect(issuesOf(CropSeasonsSchema, [...seasons, { ...SEASON, name: 'Druga', polygon: null }])).toEqual([
      expect.objectContaining({ path: '3.polygon', message: 'The whole circle already has a season in this year' }),
    ]);
  });

  it('wants the names of one year to differ', () => {
    expect(issuesOf(CropSeasonsSchema, [SEASON, { ...SEASON, polygon: 'Ziemniaki' }])).toEqual([
      expect.objectContaining({ path: '1.name', message: 'Season names must differ within a year' }),
    ]);
    expect(CropSeasonsSchema.safeParse([SEASON, { ...SEASON, emergence: '01.05.2025' }]).success).toBe(true);
  });

  it(`takes at most ${MAX_SEASONS_PER_REQUEST} seasons at once`, () => {
    const many = Array.from({ length: MAX_SEASONS_PER_REQUEST + 1 }, (_, index) => ({
      ...SEASON,
      name: `Sezon ${index}`,
      emergence: `01.05.${2000 + index}`,
    }));
    expect(messagesOf(CropSeasonsSchema, many)).toEqual([`At most ${MAX_SEASONS_PER_REQUEST} seasons at once`]);
  });
});

describe('seasonYear and the query', () => {
  it('is the emergence’s year', () => {
    expect(seasonYear({ emergence: '15.10.2025' })).toBe(2025);
  });

  it('reads ?year= as a year of the seasons’ range, or nothing', () => {
    expect(CropSeasonsQuerySchema.parse({ year: '2026' })).toEqual({ year: 2026 });
    expect(CropSeasonsQuerySchema.parse({})).toEqual({});
    expect(messagesOf(CropSeasonsQuerySchema, { year: '26' })).toEqual(['Expected a year such as 2026']);
    expect(messagesOf(CropSeasonsQuerySchema, { year: '1990' })).toEqual(['A season year lies in 2000–2100']);
  });
});

describe('cropAreaNames', () => {
  const polygon = { type: 'Polygon' as const, coordinates: [square(17.1, 52.2)] };
  const feature = (properties: Record<string, unknown> | null) => ({
    type: 'Feature' as const,
    geometry: polygon,
    properties,
  });

  it('names the features of kind crop, trimmed, and nothing else', () => {
    const areaMap: GeoJson = {
      type: 'FeatureCollection',
      features: [
        feature({ kind: 'field', name: 'Pole' }),
        feature({ kind: 'crop', crop: 'maize', name: ' Kukurydza ' }),
        feature({ kind: 'crop', name: 7 }),
        feature(null),
        feature({ kind: 'crop', name: 'Ziemniaki' }),
      ],
    };
    expect(cropAreaNames(areaMap)).toEqual(['Kukurydza', 'Ziemniaki']);
  });

  it('reads a single feature, and finds none in a bare geometry', () => {
    expect(cropAreaNames(feature({ kind: 'crop', name: 'Buraki' }))).toEqual(['Buraki']);
    expect(cropAreaNames(polygon)).toEqual([]);
  });
});
