import { AS_APPLIED_FIELDS, WatermapResponseSchema, dottedOfIsoDate } from '@pivot/contracts';
import { type ExtendedTimeLog, ISOXMLManager } from 'isoxml';
import { eq } from 'drizzle-orm';
import shp from 'shpjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sprinklerAccess } from '../../src/modules/access/access.table';
import { sprinklers } from '../../src/modules/sprinklers/sprinklers.table';
import { localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';
import { TURNING_FLOW, TURNING_REPORT_EVERY_MS, storeTurning } from '../support/turning-machine';

const FLOW = TURNING_FLOW;
const REPORT_EVERY_MS = TURNING_REPORT_EVERY_MS;

type Feature = {
  type: 'Feature';
  geometry: { type: 'Polygon'; coordinates: [number, number][][] };
  properties: { MACHINE: string; DEPTH_MM: number; VOL_M3: number; START_UTC: string; END_UTC: string };
};
type FeatureCollection = { type: 'FeatureCollection'; features: Feature[] };

/** Twice the ring's signed area in degrees²: positive when it runs counter-clockwise. */
function signedArea(ring: [number, number][]): number {
  let sum = 0;
  for (let index = 0; index + 1 < ring.length; index += 1) {
    const [x1, y1] = ring[index]!;
    const [x2, y2] = ring[index + 1]!;
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
}

/**
 * A cell named by its corners to the 7 decimals written, whichever way its ring runs (a reader
 * reprojecting WGS 84 to itself moves them by 1e-14°).
 */
function cornersKey(ring: [number, number][]): string {
  return ring
    .slice(0, 4)
    .map(([x, y]) => `${x.toFixed(7)},${y.toFixed(7)}`)
    .sort()
    .join(' ');
}

type WatermapCell = { lat: number; lng: number; mm: number };

/** The watermap's cell whose centre lies inside the ring. */
function cellInside(cells: WatermapCell[], ring: [number, number][]): WatermapCell | undefined {
  const lngs = ring.map(([x]) => x);
  const lats = ring.map(([, y]) => y);
  return cells.find(
    ({ lat, lng }) =>
      lat > Math.min(...lats) && lat < Math.max(...lats) && lng > Math.min(...lngs) && lng < Math.max(...lngs),
  );
}

const totalVolume = (features: Feature[]) => features.reduce((sum, feature) => sum + feature.properties.VOL_M3, 0);

describe("a machine's as-applied map, out", () => {
  let t: TestApp;
  let farmer: ApiClient;
  let farmerId: number;
  let stranger: ApiClient;
  let sprinklerId: number;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const pivot = await buildSprinkler(t, { name: 'Pole Północ', lat: '52.300000', lng: '17.200000', armLength: 300 });
    sprinklerId = pivot.id;
    const user = await t.buildUser();
    await grant(t, pivot.id, user.id);
    farmerId = user.id;
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    const other = await t.buildUser();
    stranger = t.client();
    await stranger.login(other.email, USER_PASSWORD);
    // An hour on 10 March (local time), packed as an old day is; an hour on 2 April, not packed yet.
    await storeTurning(t, pivot.internalId, new Date('2026-03-10T08:00:00Z'), 60);
    await storeTurning(t, pivot.internalId, new Date('2026-04-02T08:00:00Z'), 60);
    expect(await t.app.telemetryPacker.packDay(pivot.internalId, '2026-03-10')).toBe('packed');
    await t.app.waterAccounting.runOnce(new Date());
  });
  afterAll(() => t.close());

  function download(
    client: ApiClient,
    file: 'as-applied.geojson' | 'as-applied.zip' | 'as-applied.taskdata.zip',
    start: string,
    stop: string,
  ) {
    return t.app.inject({
      url: `/api/sprinkler/${sprinklerId}/${file}?start=${start}&stop=${stop}`,
      headers: { authorization: `Bearer ${client.access}`, 'accept-language': 'pl' },
    });
  }

  async function geoJson(start: string, stop: string): Promise<FeatureCollection> {
    const response = await download(farmer, 'as-applied.geojson', start, stop);
    expect(response.statusCode).toBe(200);
    return response.json<FeatureCollection>();
  }

  async function watermapCells(start: string, stop: string): Promise<WatermapCell[]> {
    const response = await farmer.get(`/api/sprinkler/${sprinklerId}/watermap/`, { query: { start, stop } });
    const { data } = WatermapResponseSchema.parse(response.body);
    return data.map(([lat, lng, mm]) => ({ lat, lng, mm }));
  }

  it("gives a day's watered cells as GeoJSON polygons, each with the watermap's depth and the day's times", async () => {
    const response = await download(farmer, 'as-applied.geojson', '02.04.2026', '02.04.2026');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/geo+json');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Pole Polnoc 02.04.2026-02.04.2026.geojson"; filename*=UTF-8''${encodeURIComponent('Pole Północ 02.04.2026-02.04.2026.geojson')}`,
    );
    const { type, features } = response.json<FeatureCollection>();
    expect(type).toBe('FeatureCollection');
    const watermap = await watermapCells('02.04.2026', '02.04.2026');
    expect(features.length).toBe(watermap.length);
    for (const { geometry, properties } of features) {
      expect(Object.keys(properties)).toEqual([...AS_APPLIED_FIELDS]);
      expect(properties.MACHINE).toBe('Pole Północ');
      const [ring] = geometry.coordinates;
      // RFC 7946: a closed ring, counter-clockwise; a 10 m square.
      expect(ring).toHaveLength(5);
      expect(ring![4]).toEqual(ring![0]);
      expect(signedArea(ring!)).toBeGreaterThan(0);
      // The watermap serves mm to 0.1.
      expect(Math.abs(cellInside(watermap, ring!)!.mm - properties.DEPTH_MM)).toBeLessThanOrEqual(0.0501);
      expect(properties.VOL_M3).toBeCloseTo((properties.DEPTH_MM / 1000) * 100, 2);
      // The hour from 10:00 local time (08:00 UTC).
      expect(properties.START_UTC >= '2026-04-02T08:00:00Z').toBe(true);
      expect(properties.END_UTC <= '2026-04-02T09:00:00Z').toBe(true);
      expect(properties.START_UTC <= properties.END_UTC).toBe(true);
    }
    expect(features.map((feature) => feature.properties.START_UTC).sort()[0]).toBe('2026-04-02T08:00:00Z');
    expect(totalVolume(features)).toBeCloseTo(FLOW, 0);
  });

  it("holds the watermap's volume to 0.5 % over a range crossing a packed day, leaving out days outside it", async () => {
    const watermap = await watermapCells('01.03.2026', '30.04.2026');
    const watermapVolume = watermap.reduce((sum, { mm }) => sum + (mm / 1000) * 100, 0);
    const { features } = await geoJson('01.03.2026', '30.04.2026');
    expect(Math.abs(totalVolume(features) - watermapVolume) / watermapVolume).toBeLessThan(0.005);
    expect(totalVolume(features)).toBeCloseTo(2 * FLOW, 0);
    const march = await geoJson('10.03.2026', '10.03.2026');
    expect(totalVolume(march.features)).toBeCloseTo(FLOW, 0);
    expect(march.features.every((feature) => feature.properties.END_UTC <= '2026-03-10T09:00:00Z')).toBe(true);
    expect((await geoJson('11.03.2026', '01.04.2026')).features).toEqual([]);
  });

  it("gives each cell its range's first and last water: a cell watered on both days, from March to April", async () => {
    const { features } = await geoJson('01.03.2026', '30.04.2026');
    const inMarch = (time: string) => time >= '2026-03-10T08:00:00Z' && time <= '2026-03-10T09:00:00Z';
    const inApril = (time: string) => time >= '2026-04-02T08:00:00Z' && time <= '2026-04-02T09:00:00Z';
    for (const { properties } of features) {
      expect(inMarch(properties.START_UTC) || inApril(properties.START_UTC)).toBe(true);
      expect(inMarch(properties.END_UTC) || inApril(properties.END_UTC)).toBe(true);
    }
    // The machine swept the same 36° both days: most cells got water on each.
    const both = features.filter(({ properties }) => inMarch(properties.START_UTC) && inApril(properties.END_UTC));
    expect(both.length).toBeGreaterThan(features.length / 2);
    // Along the arm, the first water falls on a cell when the arm first reaches its bearing.
    const earliest = features.map(({ properties }) => properties.START_UTC).sort();
    expect(earliest[0]).toBe('2026-03-10T08:00:00Z');
    expect(
      features
        .map(({ properties }) => properties.END_UTC)
        .sort()
        .at(-1),
    ).toBe('2026-04-02T09:00:00Z');
  });

  it('holds the water up to the newest report, the part the accounting has not written yet included', async () => {
    const pivot = await buildSprinkler(t, { name: 'Now', lat: '52.400000', lng: '17.300000', armLength: 300 });
    await grant(t, pivot.id, farmerId);
    const now = Date.now();
    // Twenty minutes counted and written, then eighteen more stored and not counted yet.
    await storeTurning(t, pivot.internalId, new Date(now - 40 * 60_000), 20);
    await t.app.waterAccounting.runOnce(new Date(now - 20 * 60_000));
    await storeTurning(t, pivot.internalId, new Date(now - 20 * 60_000 + REPORT_EVERY_MS), 18);
    const dotted = (ms: number) => dottedOfIsoDate(localDate('Europe/Warsaw', ms));
    const query = new URLSearchParams({ start: dotted(now - 86_400_000), stop: dotted(now) });
    const response = await t.app.inject({
      url: `/api/sprinkler/${pivot.id}/as-applied.geojson?${query}`,
      headers: { authorization: `Bearer ${farmer.access}` },
    });
    const { features } = response.json<FeatureCollection>();
    expect(totalVolume(features)).toBeCloseTo((FLOW * 38) / 60, -1);
    const newest = features
      .map(({ properties }) => Date.parse(properties.END_UTC))
      .sort((a, b) => a - b)
      .at(-1)!;
    expect(Math.abs(newest - (now - 2 * 60_000))).toBeLessThan(REPORT_EVERY_MS * 2);
  });

  it('gives the same cells and depths in a zipped shapefile, read back by an independent reader', async () => {
    const response = await download(farmer, 'as-applied.zip', '01.03.2026', '30.04.2026');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain('filename="Pole Polnoc 01.03.2026-30.04.2026.zip"');
    const read = await shp(response.rawPayload);
    const layer = Array.isArray(read) ? read : [read];
    expect(layer).toHaveLength(1);
    expect(layer[0]!.fileName).toBe('Pole_Polnoc_2026-03-01_2026-04-30');
    const fromShapefile = layer[0]!.features as Feature[];
    const { features } = await geoJson('01.03.2026', '30.04.2026');
    const byCentre = (list: Feature[]) =>
      new Map(list.map((feature) => [cornersKey(feature.geometry.coordinates[0]!), feature.properties]));
    const expected = byCentre(features);
    const actual = byCentre(fromShapefile);
    expect(actual.size).toBe(expected.size);
    for (const [centre, properties] of expected) expect(actual.get(centre)).toEqual(properties);
    for (const feature of fromShapefile) {
      expect(feature.geometry.type).toBe('Polygon');
      expect(feature.geometry.coordinates[0]).toHaveLength(5);
    }
  });

  it("cuts a long name to the shapefile table's 100 bytes without splitting a character", async () => {
    const name = `a${'ż'.repeat(99)}`;
    const pivot = await buildSprinkler(t, { name, lat: '52.500000', lng: '17.100000', armLength: 300 });
    await grant(t, pivot.id, farmerId);
    await storeTurning(t, pivot.internalId, new Date('2026-05-05T08:00:00Z'), 5);
    await t.app.waterAccounting.runOnce(new Date());
    const response = await t.app.inject({
      url: `/api/sprinkler/${pivot.id}/as-applied.zip?start=05.05.2026&stop=05.05.2026`,
      headers: { authorization: `Bearer ${farmer.access}` },
    });
    const read = await shp(response.rawPayload);
    const { features } = Array.isArray(read) ? read[0]! : read;
    expect(features.length).toBeGreaterThan(0);
    // 'a' and 49 'ż' are 99 bytes: the 50th would end at byte 101.
    for (const feature of features as Feature[]) expect(feature.properties.MACHINE).toBe(`a${'ż'.repeat(49)}`);
  });

  it("writes the field's own boundary from the area map into the task data, with its hole, and its area", async () => {
    const metresPerDegreeLng = 111_320 * Math.cos((52.3 * Math.PI) / 180);
    const square = (half: number): [number, number][] =>
      [
        [-half, -half],
        [half, -half],
        [half, half],
        [-half, half],
        [-half, -half],
      ].map(([x, y]): [number, number] => [17.2 + x! / metresPerDegreeLng, 52.3 + y! / 111_320]);
    const areaMap = {
      type: 'FeatureCollection' as const,
      features: [
        // The field (a feature without a kind is the field, as the map shows it), with a pond in it.
        {
          type: 'Feature' as const,
          properties: { name: 'Pole' },
          geometry: { type: 'Polygon' as const, coordinates: [square(300), square(50)] },
        },
        // A crop area is not the field's boundary.
        {
          type: 'Feature' as const,
          properties: { kind: 'crop', name: 'Kukurydza' },
          geometry: { type: 'Polygon' as const, coordinates: [square(100)] },
        },
      ],
    };
    await t.database.db.update(sprinklers).set({ areaMap }).where(eq(sprinklers.id, sprinklerId));
    try {
      const response = await download(farmer, 'as-applied.taskdata.zip', '01.03.2026', '30.04.2026');
      const reader = new ISOXMLManager();
      await reader.parseISOXMLFile(new Uint8Array(response.rawPayload), 'application/zip');
      const [field] = reader.rootElement.attributes.Partfield!;
      // 600 m square less the 100 m pond.
      expect(Math.abs(field!.attributes.PartfieldArea - 350_000) / 350_000).toBeLessThan(0.005);
      const [boundary] = field!.attributes.PolygonnonTreatmentZoneonly!;
      expect(field!.attributes.PolygonnonTreatmentZoneonly).toHaveLength(1);
      expect(boundary!.attributes.PolygonType).toBe('1');
      expect(
        boundary!.attributes.LineString!.map((ring) => [ring.attributes.LineStringType, ring.attributes.Point!.length]),
      ).toEqual([
        ['1', 5],
        ['2', 5],
      ]);
    } finally {
      await t.database.db
        .update(sprinklers)
        .set({ areaMap: { type: 'FeatureCollection', features: [] } })
        .where(eq(sprinklers.id, sprinklerId));
    }
  });

  it('gives ISOXML task data the isoxml package reads back without a warning: the field, the machine, a task a day, each cell in its TimeLog', async () => {
    const response = await download(farmer, 'as-applied.taskdata.zip', '01.03.2026', '30.04.2026');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(
      'filename="Pole Polnoc 01.03.2026-30.04.2026.taskdata.zip"',
    );
    const reader = new ISOXMLManager();
    await reader.parseISOXMLFile(new Uint8Array(response.rawPayload), 'application/zip');
    expect(reader.getWarnings()).toEqual([]);
    const root = reader.rootElement.attributes;
    expect(root.Partfield?.map((field) => field.attributes.PartfieldDesignator)).toEqual(['Pole Północ']);
    expect(root.Partfield![0]!.attributes.PartfieldArea).toBe(Math.round(Math.PI * 300 ** 2));
    expect(root.Device?.map((device) => device.attributes.DeviceDesignator)).toEqual(['Pole Północ']);
    // The machine watered on two days of the range: a task each, in order.
    expect(root.Task!.map((task) => task.attributes.TaskDesignator)).toEqual([
      'Pole Północ 2026-03-10',
      'Pole Północ 2026-04-02',
    ]);
    for (const [task, day] of [
      [root.Task![0]!, '10.03.2026'],
      [root.Task![1]!, '02.04.2026'],
    ] as const) {
      const timeLog = task.attributes.TimeLog![0] as ExtendedTimeLog;
      const { timeLogs, valuesInfo } = timeLog.parseBinaryFile();
      expect(timeLog.parsingErrors).toEqual([]);
      const [depthKey, totalKey] = valuesInfo.map((info) => info.valueKey);
      expect(valuesInfo.map((info) => info.DDIString)).toEqual(['024D', '0050', '008D']);

      const { features } = await geoJson(day, day);
      expect(timeLogs).toHaveLength(features.length);
      for (const record of timeLogs) {
        const { PositionNorth: lat, PositionEast: lng } = record.position as {
          PositionNorth: number;
          PositionEast: number;
        };
        const cell = features.find(({ geometry }) => cellInside([{ lat, lng, mm: 0 }], geometry.coordinates[0]!))!;
        expect(Math.abs(record.values[depthKey!]! / 10_000 - cell.properties.DEPTH_MM)).toBeLessThan(0.1);
        // The GPS time is the cell's first water of the day in UTC; the record's own time is
        // Warsaw's clock (the reader takes it for UTC): an hour ahead in March, two from its end.
        const { GpsUtcDate, GpsUtcTime } = record.position as { GpsUtcDate: number; GpsUtcTime: number };
        const firstWater = Date.parse(cell.properties.START_UTC);
        expect(Date.UTC(1980, 0, 1) + GpsUtcDate * 86_400_000 + GpsUtcTime).toBe(firstWater);
        const clockAhead = firstWater < Date.parse('2026-03-29T01:00:00Z') ? 3_600_000 : 7_200_000;
        expect((record.time as Date).getTime() - firstWater).toBe(clockAhead);
      }
      // The running total of the volume ends at the day's volume, in litres.
      expect(timeLogs.at(-1)!.values[totalKey!]! / 1000).toBeCloseTo(totalVolume(features), 0);
    }
  });

  it('gives an empty map for days without water, in each format', async () => {
    expect((await geoJson('01.01.2026', '02.01.2026')).features).toEqual([]);
    const response = await download(farmer, 'as-applied.zip', '01.01.2026', '02.01.2026');
    const read = await shp(response.rawPayload);
    expect((Array.isArray(read) ? read[0]! : read).features).toEqual([]);
  });

  it('refuses a machine the user may not see, and a range over a year, before writing anything', async () => {
    const hidden = await download(stranger, 'as-applied.geojson', '01.03.2026', '30.04.2026');
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ code: 'sprinkler_not_found' });
    const tooLong = await download(farmer, 'as-applied.zip', '01.01.2025', '02.01.2026');
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: 'validation_error' });
    const backwards = await download(farmer, 'as-applied.geojson', '02.04.2026', '01.04.2026');
    expect(backwards.statusCode).toBe(400);
  });

  describe('of every machine the user sees', () => {
    function fleetDownload(
      client: ApiClient,
      file: 'as-applied.geojson' | 'as-applied.zip' | 'as-applied.taskdata.zip',
      start: string,
      stop: string,
    ) {
      return t.app.inject({
        url: `/api/sprinkler/${file}?start=${start}&stop=${stop}`,
        headers: { authorization: `Bearer ${client.access}` },
      });
    }

    it('gives one GeoJSON of every watered machine, each cell naming its machine', async () => {
      const response = await fleetDownload(farmer, 'as-applied.geojson', '01.03.2026', '05.05.2026');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toContain('filename="as-applied 01.03.2026-05.05.2026.geojson"');
      const { features } = response.json<FeatureCollection>();
      const machines = new Set(features.map((feature) => feature.properties.MACHINE));
      // The farmer's third machine, "Now", has no water in these days.
      expect(machines).toEqual(new Set(['Pole Północ', `a${'ż'.repeat(99)}`]));
      const own = await geoJson('01.03.2026', '05.05.2026');
      expect(features.filter((feature) => feature.properties.MACHINE === 'Pole Północ')).toEqual(own.features);
    });

    it('gives a zip with a shapefile per watered machine, named apart by its id', async () => {
      const response = await fleetDownload(farmer, 'as-applied.zip', '01.03.2026', '05.05.2026');
      expect(response.statusCode).toBe(200);
      const read = await shp(response.rawPayload);
      const layers = Array.isArray(read) ? read : [read];
      expect(layers.map((layer) => layer.fileName).sort()).toEqual([
        `Pole_Polnoc_${sprinklerId}_2026-03-01_2026-05-05`,
        expect.stringMatching(/^azzzz+_\d+_2026-03-01_2026-05-05$/),
      ]);
      const pole = layers.find((layer) => layer.fileName!.startsWith('Pole_Polnoc'))!;
      expect(pole.features).toHaveLength((await geoJson('01.03.2026', '05.05.2026')).features.length);
    });

    it('gives one ISOXML task data set with a field and a device per watered machine, a task and a TimeLog per its day', async () => {
      const response = await fleetDownload(farmer, 'as-applied.taskdata.zip', '01.03.2026', '05.05.2026');
      expect(response.statusCode).toBe(200);
      const reader = new ISOXMLManager();
      await reader.parseISOXMLFile(new Uint8Array(response.rawPayload), 'application/zip');
      expect(reader.getWarnings()).toEqual([]);
      const { Partfield, Device, Task } = reader.rootElement.attributes;
      // In the machines' order by name, as the list shows them.
      const longName = `a${'ż'.repeat(99)}`;
      expect(Device?.map((device) => device.attributes.DeviceDesignator)).toEqual([longName, 'Pole Północ']);
      expect(Partfield).toHaveLength(2);
      expect(Task!.map((task) => task.attributes.TaskDesignator)).toEqual([
        `${longName} 2026-05-05`,
        'Pole Północ 2026-03-10',
        'Pole Północ 2026-04-02',
      ]);
      const counts = Task!.map(
        (task) => (task.attributes.TimeLog![0] as ExtendedTimeLog).parseBinaryFile().timeLogs.length,
      );
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts[1]).toBe((await geoJson('10.03.2026', '10.03.2026')).features.length);
      expect(counts[2]).toBe((await geoJson('02.04.2026', '02.04.2026')).features.length);
    });

    it('refuses task data of more machine-days than a task data set numbers, before writing anything', async () => {
      const dealer = await t.buildUser();
      const fleet = await t.database.db
        .insert(sprinklers)
        .values(
          Array.from({ length: 274 }, (_, index) => ({
            internalId: `FLEET-${index}-${Date.now().toString(36)}`,
            name: `Fleet ${index}`,
            lat: '52.200000',
            lng: '17.100000',
            armLength: 400,
          })),
        )
        .returning({ id: sprinklers.id });
      await t.database.db
        .insert(sprinklerAccess)
        .values(fleet.map(({ id }) => ({ sprinklerId: id, userId: dealer.id, level: 'watch' as const })));
      const client = t.client();
      await client.login(dealer.email, USER_PASSWORD);
      // 274 machines × 365 days is over 99,999 TimeLogs; 364 days fit.
      const year = await fleetDownload(client, 'as-applied.taskdata.zip', '01.01.2026', '31.12.2026');
      expect(year.statusCode).toBe(400);
      expect(year.json()).toMatchObject({ code: 'validation_error', issues: [{ path: 'query.stop' }] });
      const fewerDays = await fleetDownload(client, 'as-applied.taskdata.zip', '01.01.2026', '30.12.2026');
      expect(fewerDays.statusCode).toBe(200);
      // 274 machines × 364 days: 3 s alone, over 30 s beside the test command's other suites.
    }, 90_000);

    it('gives a user without machines an empty map: no features, one empty shapefile', async () => {
      const geo = await fleetDownload(stranger, 'as-applied.geojson', '01.03.2026', '30.04.2026');
      expect(geo.json<FeatureCollection>().features).toEqual([]);
      const zip = await fleetDownload(stranger, 'as-applied.zip', '01.03.2026', '30.04.2026');
      const read = await shp(zip.rawPayload);
      expect(read).toMatchObject({ fileName: 'as-applied_2026-03-01_2026-04-30', features: [] });
      expect((await fleetDownload(farmer, 'as-applied.zip', '01.01.2025', '02.01.2026')).statusCode).toBe(400);
    });
  });
});
