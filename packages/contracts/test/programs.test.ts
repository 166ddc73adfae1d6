import { describe, expect, it } from 'vitest';
import type { Position } from '../src/geojson';
import {
  CurrentProgramDataSchema,
  ProgramBodySchema,
  ProgramDataSchema,
  ProgramParamsSchema,
  ProgramSchema,
  type Sector,
  SectorPropertiesSchema,
  SectorSchema,
  isForbiddenZone,
} from '../src/programs';
import { expectRejected, expectUnknownKeyRejected, issuesOf, messagesOf, square } from './support';

interface SectorOverrides {
  properties?: Record<string, unknown>;
  ring?: Position[];
  /** Leaves a property out altogether. */
  without?: 'name' | 'rate';
}

/** A valid sector (a named square with a dose of 12.5 mm) with the given changes. */
function buildSector({ properties = {}, ring = square(16.93, 52.41), without }: SectorOverrides = {}) {
  const merged = Object.entries({ name: 'North', rate: 12.5, ...properties }).filter(([key]) => key !== without);
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [ring] },
    properties: Object.fromEntries(merged),
  };
}

function buildProgramData(...features: unknown[]) {
  return { type: 'FeatureCollection', features };
}

/** Two sectors side by side with different names. */
const twoSectors = () =>
  buildProgramData(
    buildSector({ properties: { name: 'North' } }),
    buildSector({ properties: { name: 'South', rate: 8 }, ring: square(16.93, 52.4) }),
  );

describe('SectorPropertiesSchema', () => {
  it.each([
    ['a dose', { name: 'North', rate: 12.5 }],
    ['a dose of zero', { name: 'Edge', rate: 0 }],
    ['a negative rate for a forbidden zone', { name: 'Farmyard', rate: -1 }],
    ['the bounds of the rate', { name: 'Max', rate: 1000 }],
  ])('accepts %s', (_label, properties) => {
    expect(SectorPropertiesSchema.parse(properties)).toEqual(properties);
  });

  it('trims the name', () => {
    expect(SectorPropertiesSchema.parse({ name: '  North  ', rate: 1 }).name).toBe('North');
  });

  it.each(['', '   ', '\t'])('asks for the sector name when it is %j', (name) => {
    expect(messagesOf(SectorPropertiesSchema, { name, rate: 1 })).toEqual(['Enter the sector name']);
  });

  it('asks for the sector name when it is missing', () => {
    expect(messagesOf(SectorPropertiesSchema, { rate: 1 })).toEqual(['Enter the sector name']);
  });

  it.each([
    ['missing', {}],
    ['null', { rate: null }],
  ])('asks for the sector rate when it is %s', (_label, rate) => {
    expect(messagesOf(SectorPropertiesSchema, { name: 'North', ...rate })).toEqual(['Enter the sector rate']);
  });

  it.each(['12.5', '12,5', 'abc', '', true, [12], Number.NaN, Number.POSITIVE_INFINITY])(
    'says the dose should be numerical for %j',
    (rate) => {
      expect(messagesOf(SectorPropertiesSchema, { name: 'North', rate })).toEqual([
        'The dose should be a numerical value',
      ]);
    },
  );

  it.each([1000.5, -1001])('rejects the out-of-range rate %d', (rate) => {
    expect(issuesOf(SectorPropertiesSchema, { name: 'North', rate })).toEqual([
      expect.objectContaining({ path: 'rate', code: rate > 0 ? 'too_big' : 'too_small' }),
    ]);
  });

  it('rejects a name of over 100 characters and a name that is not text', () => {
    expectRejected(SectorPropertiesSchema, { name: 'x'.repeat(101), rate: 1 });
    expectRejected(SectorPropertiesSchema, { name: 7, rate: 1 });
  });

  it('is strict', () => {
    expectUnknownKeyRejected(SectorPropertiesSchema, { name: 'North', rate: 1 });
  });
});

describe('SectorSchema', () => {
  it('accepts a named polygon feature with a rate', () => {
    expect(SectorSchema.parse(buildSector())).toEqual(buildSector());
  });

  it.each([
    ['a ring of three positions', buildSector({ ring: square(16.93, 52.41).slice(2) })],
    ['a ring that does not close', buildSector({ ring: square(16.93, 52.41).slice(0, 4) })],
    ['latitude and longitude swapped out of range', buildSector({ ring: square(52.41, 96.93) })],
    ['a point geometry', { ...buildSector(), geometry: { type: 'Point', coordinates: [16.93, 52.41] } }],
    ['null properties', { ...buildSector(), properties: null }],
  ])('rejects a sector with %s', (_label, sector) => {
    expectRejected(SectorSchema, sector);
  });

  it('is strict about the feature, its geometry and its properties', () => {
    expectUnknownKeyRejected(SectorSchema, buildSector());
    const sector = buildSector();
    expect(issuesOf(SectorSchema, { ...sector, geometry: { ...sector.geometry, crs: 'EPSG:4326' } })).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', path: 'geometry' }),
    ]);
    expect(issuesOf(SectorSchema, buildSector({ properties: { colour: 'red' } }))).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', path: 'properties' }),
    ]);
  });
});

describe('ProgramDataSchema', () => {
  it('accepts a FeatureCollection of sectors, forbidden zones included', () => {
    const data = buildProgramData(
      buildSector({ properties: { name: 'North' } }),
      buildSector({ properties: { name: 'Farmyard', rate: -1 }, ring: square(16.95, 52.41) }),
    );
    expect(ProgramDataSchema.parse(data)).toEqual(data);
  });

  it('accepts a program without sectors and a bbox', () => {
    expect(ProgramDataSchema.safeParse(buildProgramData()).success).toBe(true);
    expect(ProgramDataSchema.safeParse({ ...twoSectors(), bbox: [16.93, 52.4, 16.94, 52.42] }).success).toBe(true);
  });

  it.each<[string, SectorOverrides, string, string]>([
    ['a missing name', { without: 'name' }, 'features.0.properties.name', 'Enter the sector name'],
    ['an empty name', { properties: { name: ' ' } }, 'features.0.properties.name', 'Enter the sector name'],
    ['a missing rate', { without: 'rate' }, 'features.0.properties.rate', 'Enter the sector rate'],
    [
      'a non-numeric rate',
      { properties: { rate: 'lots' } },
      'features.0.properties.rate',
      'The dose should be a numerical value',
    ],
    [
      'a ring of fewer than four positions',
      {
        ring: [
          [16.93, 52.41],
          [16.94, 52.41],
          [16.93, 52.41],
        ],
      },
      'features.0.geometry.coordinates.0',
      'A polygon ring needs at least four positions',
    ],
    [
      'a ring that does not close',
      { ring: square(16.93, 52.41).slice(0, 4) },
      'features.0.geometry.coordinates.0',
      'A polygon ring must end where it starts',
    ],
  ])('reports a sector with %s at its path', (_label, overrides, path, message) => {
    expect(issuesOf(ProgramDataSchema, buildProgramData(buildSector(overrides)))).toEqual([
      expect.objectContaining({ path, message }),
    ]);
  });

  it('reports each broken sector of a program', () => {
    const data = buildProgramData(
      buildSector({ properties: { name: 'North', rate: 'x' } }),
      buildSector({ properties: { name: 'South' }, without: 'rate' }),
    );
    expect(issuesOf(ProgramDataSchema, data).map((issue) => [issue.path, issue.message])).toEqual([
      ['features.0.properties.rate', 'The dose should be a numerical value'],
      ['features.1.properties.rate', 'Enter the sector rate'],
    ]);
  });

  it.each([
    ['the same name', 'North', 'North'],
    ['names equal once trimmed', 'North', ' North '],
  ])('rejects two sectors with %s', (_label, first, second) => {
    const data = buildProgramData(
      buildSector({ properties: { name: first } }),
      buildSector({ properties: { name: second }, ring: square(16.93, 52.4) }),
    );
    expect(messagesOf(ProgramDataSchema, data)).toEqual(['Sector names must differ within a program']);
  });

  it('tells names apart by case', () => {
    const data = buildProgramData(buildSector({ properties: { name: 'north' } }), buildSector());
    expect(ProgramDataSchema.safeParse(data).success).toBe(true);
  });

  it.each([
    ['a FeatureCollection under another type', { ...twoSectors(), type: 'Feature' }],
    ['features that are not a list', { type: 'FeatureCollection', features: buildSector() }],
    ['a bare polygon among the features', buildProgramData(buildSector().geometry)],
    ['a null feature', buildProgramData(null)],
    ['a sector without properties', buildProgramData({ ...buildSector(), properties: undefined })],
    [
      'more than 500 sectors',
      buildProgramData(
        ...Array.from({ length: 501 }, (_, index) => buildSector({ properties: { name: `S${index}` } })),
      ),
    ],
  ])('rejects %s without throwing', (_label, data) => {
    expect(() => ProgramDataSchema.safeParse(data)).not.toThrow();
    expectRejected(ProgramDataSchema, data);
  });

  it('accepts 500 sectors', () => {
    const sectors = Array.from({ length: 500 }, (_, index) => buildSector({ properties: { name: `S${index}` } }));
    expect(ProgramDataSchema.safeParse(buildProgramData(...sectors)).success).toBe(true);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(ProgramDataSchema, twoSectors());
    expectRejected(ProgramDataSchema, { ...twoSectors(), name: 'Maize' });
  });
});

describe('ProgramSchema', () => {
  const program = { id: 3, name: 'Maize', programData: twoSectors() };

  it('accepts an id, a name and the sectors', () => {
    expect(ProgramSchema.parse(program)).toEqual(program);
  });

  it('rejects invalid sectors, a bad id and unknown keys', () => {
    expectRejected(ProgramSchema, { ...program, programData: buildProgramData(buildSector({ without: 'rate' })) });
    expectRejected(ProgramSchema, { ...program, id: 0 });
    expectUnknownKeyRejected(ProgramSchema, program);
  });
});

describe('ProgramBodySchema', () => {
  it('trims the program name', () => {
    expect(ProgramBodySchema.parse({ name: '  Maize 2026 ', programData: twoSectors() }).name).toBe('Maize 2026');
  });

  it.each([
    ['an empty name', { name: '  ', programData: twoSectors() }],
    ['a name over 100 characters', { name: 'm'.repeat(101), programData: twoSectors() }],
    ['missing programData', { name: 'Maize' }],
    ['duplicate sector names', { name: 'Maize', programData: buildProgramData(buildSector(), buildSector()) }],
  ])('rejects %s', (_label, body) => {
    expectRejected(ProgramBodySchema, body);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(ProgramBodySchema, { name: 'Maize', programData: twoSectors() });
  });
});

describe('ProgramParamsSchema', () => {
  it('coerces both path parameters', () => {
    expect(ProgramParamsSchema.parse({ id: '4', programId: '17' })).toEqual({ id: 4, programId: 17 });
  });

  it('rejects a missing or invalid program id and unknown keys', () => {
    expectRejected(ProgramParamsSchema, { id: '4' });
    expectRejected(ProgramParamsSchema, { id: '4', programId: 'new' });
    expectUnknownKeyRejected(ProgramParamsSchema, { id: '4', programId: '17' });
  });
});

describe('CurrentProgramDataSchema', () => {
  const running = { ...twoSectors(), name: 'Maize' };

  it('accepts the sectors with the name the program was sent under', () => {
    expect(CurrentProgramDataSchema.parse(running)).toEqual(running);
  });

  it('rejects a collection without a name and invalid sectors', () => {
    expectRejected(CurrentProgramDataSchema, twoSectors());
    expectRejected(CurrentProgramDataSchema, { ...running, features: [buildSector({ without: 'name' })] });
  });

  it('is strict', () => {
    expectUnknownKeyRejected(CurrentProgramDataSchema, running);
  });
});

describe('isForbiddenZone', () => {
  it.each([
    [-1, true],
    [-0.5, true],
    [0, false],
    [12.5, false],
  ])('rate %d is a forbidden zone: %s', (rate, expected) => {
    const sector: Sector = SectorSchema.parse(buildSector({ properties: { rate } }));
    expect(isForbiddenZone(sector)).toBe(expected);
  });
});
