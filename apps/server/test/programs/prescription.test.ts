import { type PrescriptionPreview, PrescriptionPreviewSchema, type ProgramData } from '@pivot/contracts';
import { strToU8, unzipSync, zipSync } from 'fflate';
import {
  type ExtendedGrid,
  type ExtendedTask,
  GridGridTypeEnum,
  ISOXMLManager,
  LineStringLineStringTypeEnum,
  PointPointTypeEnum,
  PolygonPolygonTypeEnum,
  type ProcessDataVariable,
  TAGS,
  TaskTaskStatusEnum,
} from 'isoxml';
import { createGridParamsGenerator } from 'isoxml/dist/entities/Grid/DefaultGridParamsGenerator';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shapefileParts } from '../../src/modules/as-applied/shapefile';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { millionCornerShapefileZip } from '../support/hostile-shapes';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM = 300;
const METRES_PER_DEGREE_LAT = 111_195;
const METRES_PER_DEGREE_LNG = METRES_PER_DEGREE_LAT * Math.cos((CENTRE.lat * Math.PI) / 180);

/** A rectangle of the field, in metres east and north of the pivot, as [longitude, latitude]. */
function rectangle(west: number, south: number, east: number, north: number): [number, number][] {
  const at = (x: number, y: number): [number, number] => [
    CENTRE.lng + x / METRES_PER_DEGREE_LNG,
    CENTRE.lat + y / METRES_PER_DEGREE_LAT,
  ];
  return [at(west, south), at(east, south), at(east, north), at(west, north), at(west, south)];
}

function zone(ring: [number, number][], properties: Record<string, unknown>) {
  return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties };
}

function geoJsonFile(features: unknown[], extra: Record<string, unknown> = {}) {
  const text = JSON.stringify({ type: 'FeatureCollection', features, ...extra });
  return { fileName: 'zalecenie.geojson', content: Buffer.from(text).toString('base64') };
}

function zipFile(files: Record<string, Uint8Array>) {
  return { fileName: 'zalecenie.zip', content: Buffer.from(zipSync(files)).toString('base64') };
}

/** The rate the program gives at a heading: the sector whose run of angles holds it. */
function rateAt(preview: PrescriptionPreview, heading: number): number | undefined {
  return preview.sectors.find(
    ({ fromAngle, toAngle }) =>
      (heading >= fromAngle && heading < toAngle) || (heading + 360 >= fromAngle && heading + 360 < toAngle),
  )?.rate;
}

describe('a prescription made into a program', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let watcher: ApiClient;
  let stranger: ApiClient;
  let sprinklerId: number;
  let machineId: string;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const pivot = await buildSprinkler(t, {
      name: 'Pole Zachód',
      lat: CENTRE.lat.toFixed(6),
      lng: CENTRE.lng.toFixed(6),
      armLength: ARM,
    });
    sprinklerId = pivot.id;
    machineId = pivot.internalId;
    const clients: ApiClient[] = [];
    for (const level of ['control', 'watch', null] as const) {
      const user = await t.buildUser({ language: 'pl' });
      if (level) await grant(t, pivot.id, user.id, level);
      const client = t.client();
      await client.login(user.email, USER_PASSWORD);
      clients.push(client);
    }
    [farmer, watcher, stranger] = clients as [ApiClient, ApiClient, ApiClient];
  });
  afterAll(() => t.close());

  const url = () => `/api/sprinkler/${sprinklerId}/prescription/`;
  const polish = { headers: { 'accept-language': 'pl' } };

  async function preview(body: Record<string, unknown>): Promise<PrescriptionPreview> {
    const response = await farmer.post(url(), body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return PrescriptionPreviewSchema.parse(response.body);
  }

  it('makes halves of a field into two sectors at their rates, each the mean of the prescription under it', async () => {
    // East of the pivot 12 mm, west of it 24 m³/ha (2.4 mm) … in a column of the user's choosing.
    const file = geoJsonFile([
      zone(rectangle(0, -400, 400, 400), { DAWKA: 12, STREFA: 1 }),
      zone(rectangle(-400, -400, 0, 400), { DAWKA: 24, STREFA: 2 }),
    ]);
    const inMillimetres = await preview(file);
    expect(inMillimetres).toMatchObject({ columns: ['DAWKA', 'STREFA'], column: 'DAWKA', unit: 'mm', zoneCount: 2 });
    expect(inMillimetres.sectors.map(({ name, rate }) => [name, rate])).toEqual([
      ['0°–180°', 12],
      ['180°–0°', 24],
    ]);
    for (const sector of inMillimetres.sectors) {
      expect(sector).toMatchObject({ meanDifference: 0, coveredShare: 1 });
      expect(sector.prescribedMin).toBe(sector.rate);
      expect(sector.prescribedMax).toBe(sector.rate);
    }
    // The circle's water: π × 300² m² at 12 and 24 mm, halved.
    const expected = (Math.PI * ARM * ARM * (12 + 24)) / 2 / 1000;
    expect(Math.abs(inMillimetres.prescribedVolume - expected) / expected).toBeLessThan(0.01);
    expect(inMillimetres.programVolume).toBe(inMillimetres.prescribedVolume);

    const perHectare = await preview({ ...file, unit: 'm3_per_ha' });
    expect(perHectare.sectors.map(({ rate }) => rate)).toEqual([1.2, 2.4]);
    // The program it gives is one the create call takes as it is.
    const saved = await farmer.post(`/api/sprinkler/${sprinklerId}/program/`, {
      name: 'Z zalecenia',
      programData: inMillimetres.programData,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  });

  it('joins neighbouring degrees whose rates are alike, not a gradient beyond twice that, and tells how far the prescription under a sector is from its rate', async () => {
    // Four strips running north–south, 10, 12, 13 and 15 mm. A degree's wedge crosses two strips,
    // so its mean lies between theirs: each half's degrees within 1.5 mm of each other.
    const strips = [10, 12, 13, 15].map((rate, index) =>
      zone(rectangle(-300 + index * 150, -300, -150 + index * 150, 300), { rate }),
    );
    const coarse = await preview({ ...geoJsonFile(strips), alikeMm: 1 });
    const fine = await preview({ ...geoJsonFile(strips), alikeMm: 0.5 });
    expect(fine.sectors.length).toBeGreaterThan(coarse.sectors.length);
    for (const sector of coarse.sectors) {
      expect(sector.prescribedMax - sector.prescribedMin).toBe(2);
      expect(sector.meanDifference).toBeLessThanOrEqual(1);
      expect(sector.rate).toBeGreaterThanOrEqual(sector.prescribedMin);
      expect(sector.rate).toBeLessThanOrEqual(sector.prescribedMax);
    }
    // North-east the arm lies on the 13 mm strip alone; due east a quarter of its field is the 13 mm strip, the rest 15 mm.
    expect(rateAt(coarse, 10)).toBeCloseTo(13, 0);
    expect(rateAt(coarse, 90)).toBeCloseTo(14.5, 0);
    expect(coarse.sectors.length).toBeLessThanOrEqual(8);
  });

  it('leaves out what is not prescribed: a sector over a field with a hole of no rate takes the rest', async () => {
    const withHole = {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [rectangle(-400, -400, 400, 400), rectangle(-100, 50, 100, 250)] },
      properties: { rate: 8, note: '' },
    };
    const empty = zone(rectangle(-100, 50, 100, 250), { rate: null });
    const result = await preview(geoJsonFile([withHole, empty]));
    expect(result.zoneCount).toBe(1);
    expect(result.sectors.map(({ rate }) => rate)).toEqual([8]);
    expect(result.sectors[0]!.coveredShare).toBeLessThan(1);
    expect(result.grid.rates.filter((rate) => rate === null).length).toBeGreaterThan(0);
  });

  it("gives back, from the machine's own as-applied map, the program that watered it, within 0.5 mm a sector", async () => {
    // A revolution at three doses: 10 mm from 0° to 120°, 20 mm to 240°, 15 mm to 360°, at 600 m³/h.
    const flow = 600;
    const doses = [
      { from: 0, to: 120, mm: 10 },
      { from: 120, to: 240, mm: 20 },
      { from: 240, to: 360, mm: 15 },
    ];
    const squareMetresPerDegree = (Math.PI * ARM * ARM) / 360;
    const start = Date.parse('2026-05-12T04:00:00Z');
    const rows = [];
    let seconds = 0;
    let angle = 0;
    const reportEvery = 5;
    while (angle < 360) {
      const dose = doses.find(({ to }) => angle < to)!;
      const secondsPerDegree = (dose.mm / 1000) * squareMetresPerDegree * (3600 / flow);
      rows.push({
        machineId,
        ts: new Date(start + seconds * 1000),
        status: 'front' as const,
        angle,
        distance: ARM,
        speed: 50,
        pressure: 2.5,
        flow,
      });
      seconds += reportEvery;
      angle += reportEvery / secondsPerDegree;
    }
    rows.push({ ...rows.at(-1)!, ts: new Date(start + seconds * 1000), angle: 0, status: 'stop' as const, flow: 0 });
    for (let index = 0; index < rows.length; index += 5_000) {
      await t.database.db.insert(telemetry).values(rows.slice(index, index + 5_000));
    }
    await t.app.waterAccounting.runOnce(new Date());
    const exported = await t.app.inject({
      url: `/api/sprinkler/${sprinklerId}/as-applied.zip?start=12.05.2026&stop=13.05.2026`,
      headers: { authorization: `Bearer ${farmer.access}` },
    });
    expect(exported.statusCode).toBe(200);
    const result = await preview({ fileName: 'as-applied.zip', content: exported.rawPayload.toString('base64') });
    expect(result.column).toBe('DEPTH_MM');
    expect(result.unit).toBe('mm');
    for (const { from, to, mm } of doses) {
      // Away from where the dose changed: there the machine's 10 m cells hold some of both.
      for (let heading = from + 3; heading < to - 3; heading += 1) {
        expect(Math.abs(rateAt(result, heading)! - mm), `at ${heading}°`).toBeLessThanOrEqual(0.5);
      }
    }
    expect(result.sectors.length).toBeLessThanOrEqual(12);
  });

  it('converts a shapefile drawn in PUWG 1992 (EPSG:2180) by its .prj', async () => {
    const puwg1992 =
      'PROJCS["ETRF_1989_Poland_CS92",GEOGCS["GCS_ETRF_1989",DATUM["D_ETRF_1989",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",-5300000.0],PARAMETER["Central_Meridian",19.0],PARAMETER["Scale_Factor",0.9993],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
    const toPuwg = proj4('EPSG:4326', puwg1992);
    // The east half at 7 mm, the west half at 17 mm, their corners in metres of PUWG 1992.
    const half = (west: number, east: number, depth: number) => ({
      corners: rectangle(west, -400, east, 400)
        .slice(0, 4)
        .map((position) => toPuwg.forward(position) as [number, number]),
      MACHINE: 'Pole',
      DEPTH_MM: depth,
      VOL_M3: 0,
      START_UTC: '',
      END_UTC: '',
    });
    const files: Record<string, Uint8Array> = {};
    for (const entry of shapefileParts('puwg', [half(0, 400, 7), half(-400, 0, 17)])) {
      files[entry.name] = entry.name.endsWith('.prj') ? strToU8(puwg1992) : Buffer.concat([...entry.chunks]);
    }
    const result = await preview(zipFile(files));
    expect(result.sectors.map(({ name, rate }) => [name, rate])).toEqual([
      ['0°–180°', 7],
      ['180°–0°', 17],
    ]);
  });

  /** ISOXML task data of one task, made with the isoxml package as a farm system would. */
  async function taskData(build: (manager: ISOXMLManager, task: ExtendedTask) => void) {
    const manager = new ISOXMLManager({ gridParamsGenerator: createGridParamsGenerator(10, 10) });
    const task = manager.createEntityFromAttributes<ExtendedTask>(TAGS.Task, {
      TaskStatus: TaskTaskStatusEnum.Planned,
    });
    build(manager, task);
    manager.registerEntity(task);
    manager.rootElement.attributes.Task = [task];
    return { fileName: 'TASKDATA.zip', content: Buffer.from(await manager.saveISOXML()).toString('base64') };
  }

  /** DDI 1, Setpoint Volume Per Area Application Rate, counts 0.01 mm³/m²: 1 mm is 100,000,000. */
  const DDI_1_PER_MM = 100_000_000;

  it('reads an ISOXML grid of values (type 2) or of zone codes (type 1), and treatment zones drawn as polygons, in mm', async () => {
    const grid = await taskData((manager, task) => {
      const variable = manager.createEntityFromAttributes<ProcessDataVariable>(TAGS.ProcessDataVariable, {
        ProcessDataDDI: '0001',
        ProcessDataValue: 0,
      });
      const halves = {
        type: 'FeatureCollection' as const,
        features: [
          zone(rectangle(0, -400, 400, 400), { rate: 8 * DDI_1_PER_MM }),
          zone(rectangle(-400, -400, 0, 400), { rate: 16 * DDI_1_PER_MM }),
        ],
      };
      task.addGridFromGeoJSON(halves as never, [variable], ['rate']);
    });
    const fromGrid = await preview(grid);
    expect(fromGrid.column).toBe('DDI 1: Setpoint Volume Per Area Application Rate as [mm³/m²]');
    expect(fromGrid.unit).toBe('mm');
    // The grid's 10 m cells on the halves' edge at north and south hold whichever half their centre lay in.
    expect(
      fromGrid.sectors.filter(({ toAngle, fromAngle }) => toAngle - fromAngle > 10).map(({ rate }) => rate),
    ).toEqual([8, 16]);

    const polygons = await taskData((manager, task) => {
      const point = ([lng, lat]: [number, number]) =>
        manager.createEntityFromAttributes(TAGS.Point, {
          PointType: PointPointTypeEnum.Other,
          PointNorth: lat,
          PointEast: lng,
        });
      const treatmentZone = (code: number, ring: [number, number][], mm: number) =>
        manager.createEntityFromAttributes(TAGS.TreatmentZone, {
          TreatmentZoneCode: code,
          PolygonTreatmentZoneonly: [
            manager.createEntityFromAttributes(TAGS.Polygon, {
              PolygonType: PolygonPolygonTypeEnum.TreatmentZone,
              LineString: [
                manager.createEntityFromAttributes(TAGS.LineString, {
                  LineStringType: LineStringLineStringTypeEnum.PolygonExterior,
                  Point: ring.map(point),
                }),
              ],
            }),
          ],
          ProcessDataVariable: [
            manager.createEntityFromAttributes(TAGS.ProcessDataVariable, {
              ProcessDataDDI: '0001',
              ProcessDataValue: mm * DDI_1_PER_MM,
            }),
          ],
        });
      task.attributes.TreatmentZone = [
        treatmentZone(1, rectangle(-400, 0, 400, 400), 5) as never,
        treatmentZone(2, rectangle(-400, -400, 400, 0), 11) as never,
      ];
    });
    // Type 1: 10 m cells each naming its zone, 4 mm west and 9 mm east; zone 0, out of the field, north-east.
    const codes = await taskData((manager, task) => {
      const cellLat = 10 / METRES_PER_DEGREE_LAT;
      const cellLng = 10 / METRES_PER_DEGREE_LNG;
      const side = 80;
      const binary = new Uint8Array(side * side);
      for (let row = 0; row < side; row += 1) {
        for (let column = 0; column < side; column += 1) {
          const east = column >= side / 2;
          binary[row * side + column] = east && row >= side / 2 ? 0 : east ? 2 : 1;
        }
      }
      const treatment = (code: number, mm: number) =>
        manager.createEntityFromAttributes(TAGS.TreatmentZone, {
          TreatmentZoneCode: code,
          ProcessDataVariable: [
            manager.createEntityFromAttributes(TAGS.ProcessDataVariable, {
              ProcessDataDDI: '0001',
              ProcessDataValue: mm * DDI_1_PER_MM,
            }),
          ],
        });
      const grid = manager.createEntityFromAttributes<ExtendedGrid>(TAGS.Grid, {
        GridMinimumNorthPosition: CENTRE.lat - (side / 2) * cellLat,
        GridMinimumEastPosition: CENTRE.lng - (side / 2) * cellLng,
        GridCellNorthSize: cellLat,
        GridCellEastSize: cellLng,
        GridMaximumColumn: side,
        GridMaximumRow: side,
        Filename: 'GRD00001',
        Filelength: side * side,
        GridType: GridGridTypeEnum.GridType1,
      });
      grid.binaryData = binary;
      task.attributes.Grid = [grid];
      task.attributes.OutOfFieldTreatmentZoneCode = 0;
      task.attributes.TreatmentZone = [treatment(0, 0), treatment(1, 4), treatment(2, 9)] as never;
    });
    const fromCodes = await preview(codes);
    expect(fromCodes.sectors.map(({ name, rate }) => [name, rate])).toEqual([
      ['0°–180°', 9],
      ['180°–0°', 4],
    ]);
    // The north-east quarter, out of the field, is not prescribed: half of the east sector.
    expect(fromCodes.sectors[0]!.coveredShare).toBeCloseTo(0.5, 1);

    const fromZones = await preview(polygons);
    // North half 5 mm, south half 11 mm: the sectors run from east to west through south.
    expect(fromZones.sectors.map(({ name, rate }) => [name, rate])).toEqual([
      ['90°–270°', 11],
      ['270°–90°', 5],
    ]);
  });

  it('refuses, in the reader’s language, a zip that names a file outside its folder, and one that unpacks too large', async () => {
    const escaping = zipFile({ '../../etc/zalecenie.shp': strToU8('x'), 'zalecenie.dbf': strToU8('x') });
    const refused = await farmer.post(url(), escaping, polish);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'prescription_unsafe_zip',
      message: expect.stringContaining('Plik zip wskazuje pliki spoza swojego folderu'),
    });
    // 70 MB of zeros, deflated to some 70 KB.
    const bomb = zipFile({ 'zalecenie.shp': new Uint8Array(70 * 1024 * 1024), 'zalecenie.dbf': strToU8('x') });
    expect((await farmer.post(url(), bomb)).body).toMatchObject({ code: 'prescription_unsafe_zip' });
  });

  it('refuses a shapefile of a million corners from its records’ headers, before reading a shape', async () => {
    const started = performance.now();
    const refused = await farmer.post(url(), {
      fileName: 'million.zip',
      content: Buffer.from(millionCornerShapefileZip()).toString('base64'),
    });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'prescription_too_many_corners' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses a coordinate system it cannot convert, and metres given as if they were degrees', async () => {
    const exported = await t.app.inject({
      url: `/api/sprinkler/${sprinklerId}/as-applied.zip?start=12.05.2026&stop=13.05.2026`,
      headers: { authorization: `Bearer ${farmer.access}` },
    });
    const parts = unzipSync(exported.rawPayload);
    const withStrangePrj = Object.fromEntries(
      Object.entries(parts).map(([name, bytes]) => [name, name.endsWith('.prj') ? strToU8('PROJCS["Nowhere"') : bytes]),
    );
    expect((await farmer.post(url(), zipFile(withStrangePrj), polish)).body).toMatchObject({
      code: 'prescription_projection',
      message: expect.stringContaining('układu współrzędnych'),
    });
    const inMetres = {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [357_000, 502_000],
            [357_100, 502_000],
            [357_100, 502_100],
            [357_000, 502_000],
          ],
        ],
      },
      properties: { rate: 10 },
    };
    expect((await farmer.post(url(), geoJsonFile([inMetres]))).body).toMatchObject({ code: 'prescription_projection' });
    const named = geoJsonFile([zone(rectangle(-400, -400, 400, 400), { rate: 10 })], {
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2180' } },
    });
    expect((await farmer.post(url(), named)).body).toMatchObject({ code: 'prescription_projection' });
  });

  it('refuses rates below 0 or absurdly high, saying where, and a prescription of another field', async () => {
    const field = rectangle(-400, -400, 400, 400);
    const negative = await farmer.post(url(), geoJsonFile([zone(field, { rate: 10 }), zone(field, { rate: -9999 })]));
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({
      code: 'prescription_rate_out_of_range',
      issues: [{ path: 'zones.1.rate', message: '-9999' }],
    });
    // 250 m³/ha read as mm.
    const tenfold = await farmer.post(url(), { ...geoJsonFile([zone(field, { rate: 250 })]), unit: 'mm' });
    expect(tenfold.body).toMatchObject({ code: 'prescription_rate_out_of_range' });
    const elsewhere = geoJsonFile([zone(rectangle(5_000, 5_000, 6_000, 6_000), { rate: 10 })]);
    expect((await farmer.post(url(), elsewhere)).body).toMatchObject({ code: 'prescription_outside_machine' });
    const noRates = geoJsonFile([zone(field, { name: 'Pole' })]);
    expect((await farmer.post(url(), noRates)).body).toMatchObject({ code: 'prescription_no_rates' });
    const notAsked = await farmer.post(url(), { ...geoJsonFile([zone(field, { rate: 10 })]), column: 'DAWKA' });
    expect(notAsked.body).toMatchObject({ code: 'prescription_no_rates' });
    for (const broken of [
      { fileName: 'zalecenie.geojson', content: Buffer.from('{"type":').toString('base64') },
      { fileName: 'zalecenie.zip', content: Buffer.from('not a zip').toString('base64') },
      { fileName: 'zalecenie.kml', content: Buffer.from('<kml/>').toString('base64') },
    ]) {
      expect((await farmer.post(url(), broken)).body).toMatchObject({ code: 'prescription_unreadable' });
    }
  });

  it('answers a burst of the same prescription alike, or asks for a moment, and never fails one', async () => {
    // How many are refused depends on how the requests interleave; the gate's own order and
    // refusals are proven step by step in test/http/bounded-work.test.ts.
    const file = await taskData((manager, task) => {
      const variable = manager.createEntityFromAttributes<ProcessDataVariable>(TAGS.ProcessDataVariable, {
        ProcessDataDDI: '0001',
        ProcessDataValue: 0,
      });
      const field = {
        type: 'FeatureCollection',
        features: [zone(rectangle(-400, -400, 400, 400), { rate: DDI_1_PER_MM })],
      };
      task.addGridFromGeoJSON(field as never, [variable], ['rate']);
    });
    const answers = await Promise.all(Array.from({ length: 8 }, () => farmer.post(url(), file)));
    const read = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    // One read and four waiting always get through.
    expect(read.length).toBeGreaterThanOrEqual(5);
    for (const answer of read) expect(answer.body).toEqual(read[0]!.body);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body).toMatchObject({ code: 'rate_limited' });
      expect(answer.headers['retry-after']).toBe('5');
    }
    expect((await farmer.post(url(), file)).status).toBe(200);
  });

  it('is for whoever may change the machine’s programs, and stores nothing', async () => {
    const file = geoJsonFile([zone(rectangle(-400, -400, 400, 400), { rate: 10 })]);
    const programsBefore = (await farmer.get(`/api/sprinkler/${sprinklerId}/`)).body as { programs: ProgramData[] };
    expect((await watcher.post(url(), file)).body).toMatchObject({ code: 'watch_only' });
    expect((await stranger.post(url(), file)).status).toBe(404);
    await preview(file);
    const programsAfter = (await farmer.get(`/api/sprinkler/${sprinklerId}/`)).body as { programs: ProgramData[] };
    expect(programsAfter.programs).toEqual(programsBefore.programs);
  });
});
