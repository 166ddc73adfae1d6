import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProgramDataSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { MapImportError, type MapImportProblem, mapFileFormat, readMapFile, toProgramData } from './import-map-file';

/** The files the browser tests upload, in e2e/fixtures (sectors.zip comes from make-shapefile.ts there). */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../../e2e/fixtures');
const fixture = (name: string) => path.join(FIXTURES, name);

/** A fixture file as the browser's File gives it. */
function fixtureFile(name: string) {
  const bytes = readFileSync(fixture(name));
  return {
    name,
    text: async () => bytes.toString('utf8'),
    arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  };
}

function textFile(name: string, text: string) {
  return { name, text: async () => text, arrayBuffer: async () => new TextEncoder().encode(text).buffer };
}

const options = { defaultName: (number: number) => `Sector ${number}` };
const square = (west: number, south: number, size = 0.001) => [
  [west, south],
  [west + size, south],
  [west + size, south + size],
  [west, south + size],
  [west, south],
];
const polygon = (properties: Record<string, unknown> | null, ring: number[][] = square(17.41, 52.13)) => ({
  type: 'Feature',
  properties,
  geometry: { type: 'Polygon', coordinates: [ring] },
});
const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });

async function problemOf(run: () => unknown): Promise<MapImportProblem | 'none'> {
  try {
    await run();
    return 'none';
  } catch (error) {
    if (error instanceof MapImportError) return error.problem;
    throw error;
  }
}

const summary = (data: { features: { properties: { name: string; rate: number } }[] }) =>
  data.features.map((sector) => [sector.properties.name, sector.properties.rate]);

describe('map file formats', () => {
  it('are told by the extension', () => {
    expect(mapFileFormat('Pole.GeoJSON')).toBe('geojson');
    expect(mapFileFormat('pole.json')).toBe('geojson');
    expect(mapFileFormat('pole.kml')).toBe('kml');
    expect(mapFileFormat('pole.zip')).toBe('shapefile');
    expect(mapFileFormat('pole.kmz')).toBeNull();
    expect(mapFileFormat('pole')).toBeNull();
  });
});

describe('reading the fixture files', () => {
  it('turns a GeoJSON file into sectors: spellings, a multipolygon, open rings, altitudes, points skipped', async () => {
    const data = await readMapFile(fixtureFile('sectors.geojson'), options);
    expect(ProgramDataSchema.safeParse(data).success).toBe(true);
    expect(summary(data)).toEqual([
      ['Północ', 12],
      ['Południe', 18.5],
      ['Rów (1)', -1],
      ['Rów (2)', -1],
    ]);
    const south = data.features[1]!.geometry.coordinates[0]!;
    expect(south).toHaveLength(5);
    expect(south[4]).toEqual(south[0]);
    expect(data.features[2]!.geometry.coordinates[0]![0]).toEqual([17.418, 52.137]);
  });

  it('reads a KML file with ExtendedData and SchemaData rates', async () => {
    const data = await readMapFile(fixtureFile('sectors.kml'), options);
    expect(summary(data)).toEqual([
      ['Wschód', 15],
      ['Zachód', 9.5],
    ]);
    expect(data.features[0]!.geometry.coordinates[0]![0]).toEqual([17.4152, 52.1365]);
  });

  it('reads a zipped shapefile with its .prj and UTF-8 names', async () => {
    const data = await readMapFile(fixtureFile('sectors.zip'), options);
    expect(summary(data)).toEqual([
      ['Pas zachodni', 10],
      ['Pas wschodni', 20.5],
      ['Łąka', 7.5],
    ]);
    const [longitude, latitude] = data.features[0]!.geometry.coordinates[0]![0]!;
    expect(longitude).toBeCloseTo(17.4118, 9);
    expect(latitude).toBeCloseTo(52.1365, 9);
  });

  it('refuses a broken file', async () => {
    expect(await problemOf(() => readMapFile(fixtureFile('broken.kml'), options))).toBe('unreadable');
    const truncated = '{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Pol';
    expect(await problemOf(() => readMapFile(textFile('sectors.geojson', truncated), options))).toBe('unreadable');
  });

  it('refuses what is not a map file, or not one it can read', async () => {
    expect(await problemOf(() => readMapFile(textFile('sectors.kmz', 'PK'), options))).toBe('format');
    expect(await problemOf(() => readMapFile(textFile('sectors.kml', '<kml><Document>'), options))).toBe('unreadable');
    expect(await problemOf(() => readMapFile(textFile('sectors.kml', '<html><body/></html>'), options))).toBe(
      'unreadable',
    );
    expect(await problemOf(() => readMapFile(textFile('sectors.zip', 'not a zip'), options))).toBe('unreadable');
  });
});

describe('GeoJSON to sectors', () => {
  it('accepts a single feature, naming what has no name; a bare polygon has no rate, so it is refused', () => {
    expect(summary(toProgramData(polygon({ Rate: 5 }), options))).toEqual([['Sector 1', 5]]);
    const bare = { type: 'Polygon', coordinates: [square(17.41, 52.13)] };
    expect(() => toProgramData(bare, options)).toThrow(MapImportError);
  });

  it('reads rates as numbers or numeric texts, under common names', () => {
    const data = toProgramData(
      collection(
        polygon({ nazwa: 'A', dawka: '7,5' }),
        polygon({ title: 'B', DOSE: ' -2 ' }),
        polygon({ NAME: 'C', mm: 0 }),
      ),
      options,
    );
    expect(summary(data)).toEqual([
      ['A', 7.5],
      ['B', -2],
      ['C', 0],
    ]);
  });

  it('refuses a polygon without a rate or with a rate that is not a number', () => {
    expect(() => toProgramData(collection(polygon({ name: 'A' })), options)).toThrow(MapImportError);
    for (const rate of ['dużo', '12 mm', true, null, Number.NaN]) {
      const run = () => toProgramData(collection(polygon({ name: 'A', rate })), options);
      expect(run, String(rate)).toThrow(expect.objectContaining({ problem: 'rate' }));
    }
  });

  it('keeps sector names unique within the program', () => {
    const data = toProgramData(collection(polygon({ name: 'A', rate: 1 }), polygon({ name: 'A', rate: 2 })), options);
    expect(summary(data)).toEqual([
      ['A', 1],
      ['A (2)', 2],
    ]);
  });

  it('keeps holes and closes every ring', () => {
    const outer = square(17.41, 52.13, 0.01).slice(0, -1);
    const hole = square(17.412, 52.132, 0.001).slice(0, -1);
    const feature = {
      type: 'Feature',
      properties: { name: 'A', rate: 1 },
      geometry: { type: 'Polygon', coordinates: [outer, hole] },
    };
    const rings = toProgramData(feature, options).features[0]!.geometry.coordinates;
    expect(rings).toHaveLength(2);
    expect(rings.every((ring) => ring.length === 5 && ring[0]![0] === ring[4]![0])).toBe(true);
  });

  it('takes the polygons out of a geometry collection', () => {
    const feature = {
      type: 'Feature',
      properties: { name: 'A', rate: 3 },
      geometry: {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [17.41, 52.13] },
          { type: 'Polygon', coordinates: [square(17.41, 52.13)] },
          { type: 'Polygon', coordinates: [square(17.42, 52.13)] },
        ],
      },
    };
    expect(summary(toProgramData(feature, options))).toEqual([
      ['A (1)', 3],
      ['A (2)', 3],
    ]);
  });

  it('gives "no polygons" for a file of points and lines only', () => {
    const point = {
      type: 'Feature',
      properties: { name: 'A', rate: 1 },
      geometry: { type: 'Point', coordinates: [17, 52] },
    };
    expect(() => toProgramData(collection(point), options)).toThrow(expect.objectContaining({ problem: 'noPolygons' }));
    expect(() => toProgramData(collection(), options)).toThrow(expect.objectContaining({ problem: 'noPolygons' }));
  });

  it('refuses wrong structures: not GeoJSON, projected coordinates, rings too short, rates out of range', () => {
    const structure = expect.objectContaining({ problem: 'structure' });
    expect(() => toProgramData([1, 2, 3], options)).toThrow(structure);
    expect(() => toProgramData({ type: 'FeatureCollection', features: 'x' }, options)).toThrow(structure);
    expect(() => toProgramData(collection({ type: 'Thing' }), options)).toThrow(structure);
    const projected = square(357000, 5778000, 100);
    expect(() => toProgramData(collection(polygon({ name: 'A', rate: 1 }, projected)), options)).toThrow(structure);
    const line = [
      [17.41, 52.13],
      [17.42, 52.13],
      [17.41, 52.13],
    ];
    expect(() => toProgramData(collection(polygon({ name: 'A', rate: 1 }, line)), options)).toThrow(structure);
    expect(() => toProgramData(collection(polygon({ name: 'A', rate: 5000 })), options)).toThrow(structure);
  });
});
