import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProgramDataSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  MapImportError,
  type MapImportDetail,
  type MapImportProblem,
  mapFileFormat,
  readMapFile,
  toProgramData,
} from './import-map-file';
import { type MachineReach, checkReach, formatDistance, swapCoordinates } from './import-reach';

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

  it('refuses wrong structures: not GeoJSON, rings too short, rates out of range', () => {
    const structure = expect.objectContaining({ problem: 'structure' });
    expect(() => toProgramData([1, 2, 3], options)).toThrow(structure);
    expect(() => toProgramData({ type: 'FeatureCollection', features: 'x' }, options)).toThrow(structure);
    expect(() => toProgramData(collection({ type: 'Thing' }), options)).toThrow(structure);
    const line = [
      [17.41, 52.13],
      [17.42, 52.13],
      [17.41, 52.13],
    ];
    expect(() => toProgramData(collection(polygon({ name: 'A', rate: 1 }, line)), options)).toThrow(structure);
    expect(() => toProgramData(collection(polygon({ name: 'A', rate: 5000 })), options)).toThrow(structure);
  });
});

/** Where the refusal's detail is asked for too. */
async function refusalOf(run: () => unknown): Promise<{ problem: MapImportProblem; detail: MapImportDetail } | 'none'> {
  try {
    await run();
    return 'none';
  } catch (error) {
    if (error instanceof MapImportError) return { problem: error.problem, detail: error.detail };
    throw error;
  }
}

/** PIVOT-05 of the demo, whose field the fixtures are drawn on: a 260 m arm. */
const PIVOT_05: MachineReach = { centre: [17.415, 52.138], reachM: 260 + 60, armKnown: true };

describe('sectors far from the machine', () => {
  it('are told with their distance in km, and a file with latitude and longitude swapped is recognised', async () => {
    const right = await readMapFile(fixtureFile('sectors.geojson'), options);
    expect(checkReach(right, PIVOT_05)).toEqual({ far: [], fitsSwapped: false });

    // The same file written latitude first: valid positions, but in the Arabian Sea off Yemen.
    const swappedFile = readFileSync(fixture('sectors.geojson'), 'utf8').replace(
      /\[(-?[\d.]+),\s*(-?[\d.]+)(,\s*-?[\d.]+)?\]/g,
      (_, longitude: string, latitude: string) => `[${latitude}, ${longitude}]`,
    );
    const swapped = await readMapFile(textFile('sectors.geojson', swappedFile), options);
    const check = checkReach(swapped, PIVOT_05);
    expect(check.far.map((sector) => sector.name)).toEqual(expect.arrayContaining(['Północ', 'Południe']));
    expect(check.far).toHaveLength(4);
    // 52.14° E, 17.41° N is about 4,900 km from the field near Środa Wielkopolska.
    expect(check.far[0]!.distanceM).toBeGreaterThan(4_800_000);
    expect(check.far[0]!.distanceM).toBeLessThan(5_000_000);
    expect(formatDistance(check.far[0]!.distanceM, 'en')).toMatch(/^4,9\d\d km$/);
    expect(formatDistance(check.far[0]!.distanceM, 'pl')).toMatch(/^49\d\d km$/);
    expect(check.fitsSwapped).toBe(true);
    expect(checkReach(swapCoordinates(swapped), PIVOT_05).far).toEqual([]);
  });

  it('tells a sector just beyond the arm in metres, and one over the centre is within reach', () => {
    const near = toProgramData(
      collection(
        polygon({ name: 'Over the pivot', rate: 1 }, square(17.414, 52.1375)),
        polygon({ name: 'Next field', rate: 1 }, square(17.415, 52.142)),
      ),
      options,
    );
    const { far, fitsSwapped } = checkReach(near, PIVOT_05);
    expect(far.map((sector) => sector.name)).toEqual(['Next field']);
    // 52.142 − 52.138 = 0.004° of latitude: 445 m north of the pivot.
    expect(far[0]!.distanceM).toBeCloseTo(444.8, 0);
    expect(formatDistance(far[0]!.distanceM, 'en')).toBe('445 m');
    expect(fitsSwapped).toBe(false);
  });
});

describe('files in a projected coordinate system', () => {
  const expectOnTheField = async (name: string) => {
    const data = await readMapFile(fixtureFile(name), options);
    const reference = await readMapFile(fixtureFile('sectors.zip'), options);
    expect(summary(data)).toEqual(summary(reference));
    data.features.forEach((sector, index) => {
      sector.geometry.coordinates[0]!.forEach(([longitude, latitude], corner) => {
        const [expectedLongitude, expectedLatitude] = reference.features[index]!.geometry.coordinates[0]![corner]!;
        // A millimetre in the file is 1e-8 of a degree.
        expect(longitude).toBeCloseTo(expectedLongitude!, 7);
        expect(latitude).toBeCloseTo(expectedLatitude!, 7);
      });
    });
    expect(checkReach(data, PIVOT_05).far).toEqual([]);
  };

  it('reprojects a shapefile in PUWG 1992 (EPSG:2180) by its .prj onto the field', async () => {
    await expectOnTheField('sectors-puwg1992.zip');
  });

  it('reprojects a GeoJSON naming EPSG:2180 in its crs onto the field', async () => {
    await expectOnTheField('sectors-puwg1992.geojson');
  });

  it('refuses projected numbers without a system, saying they are not degrees', async () => {
    const file = JSON.parse(readFileSync(fixture('sectors-puwg1992.geojson'), 'utf8')) as Record<string, unknown>;
    delete file.crs;
    const refusal = await refusalOf(() => readMapFile(textFile('sectors.geojson', JSON.stringify(file)), options));
    expect(refusal).toEqual({ problem: 'projected', detail: { sample: '391337.18, 475675.86' } });
  });

  it('names a system it cannot convert', async () => {
    const file = JSON.parse(readFileSync(fixture('sectors-puwg1992.geojson'), 'utf8')) as Record<string, unknown>;
    file.crs = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::31467' } };
    const refusal = await refusalOf(() => readMapFile(textFile('sectors.geojson', JSON.stringify(file)), options));
    expect(refusal).toEqual({ problem: 'unknownSystem', detail: { system: 'EPSG:31467' } });
  });

  it('takes a GeoJSON naming WGS 84 or CRS84 as it is', async () => {
    for (const name of ['urn:ogc:def:crs:OGC:1.3:CRS84', 'EPSG:4326']) {
      const file = { ...collection(polygon({ name: 'A', rate: 1 })), crs: { type: 'name', properties: { name } } };
      const data = await readMapFile(textFile('a.geojson', JSON.stringify(file)), options);
      expect(data.features[0]!.geometry.coordinates[0]![0]).toEqual([17.41, 52.13]);
    }
  });
});

describe('shapes a machine cannot water by', () => {
  it('refuse the file, naming the sector and what is wrong', () => {
    const bowtie = [
      [17.41, 52.13],
      [17.42, 52.14],
      [17.42, 52.13],
      [17.41, 52.14],
      [17.41, 52.13],
    ];
    const run = () =>
      toProgramData(
        collection(polygon({ name: 'A', rate: 1 }), polygon({ name: 'Kokarda', rate: 2 }, bowtie)),
        options,
      );
    expect(run).toThrow(
      expect.objectContaining({ problem: 'shape', detail: { sector: 'Kokarda', shape: 'self_intersection' } }),
    );
  });
});
