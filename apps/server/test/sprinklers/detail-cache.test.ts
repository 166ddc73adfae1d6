import {
  AreaMapImportResultSchema,
  GeoJsonSchema,
  type SprinklerDetail,
  SprinklerDetailSchema,
} from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../../src/db/client';
import { compiledSerializerCompiler } from '../../src/http/compiled-serializer';
import { LruCache } from '../../src/lru-cache';
import { machineState } from '../../src/modules/telemetry/telemetry.table';
import { soilSensors, weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { createTestDatabase } from '../support/database';
import { combRing, features } from '../support/hostile-shapes';
import { buildProgram, buildSprinkler, grant, squareSector } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

/**
 * The detail is read through one server instance (`reader`) and changed through another
 * (`writer`) on the same database, as two instances behind a load balancer would: every change
 * shows in the reader's next answer, though the reader has the detail cached.
 */
describe('the machine detail, cached, on two instances of one database', () => {
  let database: DatabaseHandle;
  let reader: TestApp;
  let writer: TestApp;
  let writerAdmin: ApiClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    reader = await createTestApp({}, { database });
    writer = await createTestApp({}, { database });
    writerAdmin = await writer.adminClient();
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    await database?.close();
  });

  /** A machine granted to a farmer signed in on the reader, with its detail already cached there. */
  async function cachedMachine() {
    const sprinkler = await buildSprinkler(reader);
    const farmer = await reader.signedInUser();
    await grant(reader, sprinkler.id, farmer.user.id);
    const detail = async () => {
      const response = await farmer.client.get(`/api/sprinkler/${sprinkler.id}/`);
      expect(response.status).toBe(200);
      return SprinklerDetailSchema.parse(response.body);
    };
    await detail();
    await detail();
    return { sprinkler, farmer, detail };
  }

  it('answers byte for byte what the zod serializer writes, from the cache as on the first request', async () => {
    const { sprinkler, farmer } = await cachedMachine();
    await writerAdmin.patch(`/api/sprinkler/${sprinkler.id}/`, {
      areaMap: {
        type: 'FeatureCollection',
        features: [{ ...squareSector('Field', 0), properties: { kind: 'field', name: 'Field' } }],
      },
    });
    await writerAdmin.post(`/api/sprinkler/${sprinkler.id}/program/`, buildProgram('Wiosna'));
    const zodSerializer = serializerCompiler({
      schema: SprinklerDetailSchema,
      method: 'GET',
      url: '/api/sprinkler/:id/',
    }) as (data: unknown) => string;
    for (let request = 0; request < 2; request++) {
      const response = await reader.app.inject({
        method: 'GET',
        url: `/api/sprinkler/${sprinkler.id}/`,
        headers: { authorization: `Bearer ${farmer.client.access}` },
      });
      const detail = SprinklerDetailSchema.parse(response.json());
      expect(detail.programs).toHaveLength(1);
      expect(response.payload).toBe(zodSerializer(detail));
    }
  });

  it('shows a renamed machine, its new area map and its low-pressure threshold', async () => {
    const { sprinkler, detail } = await cachedMachine();
    const areaMap = {
      type: 'FeatureCollection',
      features: [{ ...squareSector('Field', 0), properties: { kind: 'field', name: 'Field' } }],
    };
    await writerAdmin.patch(`/api/sprinkler/${sprinkler.id}/`, { name: 'Nowa nazwa', areaMap });
    expect(await detail()).toMatchObject({ name: 'Nowa nazwa', areaMap });
    await writerAdmin.patch(`/api/sprinkler/${sprinkler.id}/`, { lowPressureBar: 2.5 });
    expect((await detail()).lowPressureBar).toBe(2.5);
  });

  it('shows a program stored, changed and deleted', async () => {
    const { sprinkler, detail } = await cachedMachine();
    const stored = (await writerAdmin.post(`/api/sprinkler/${sprinkler.id}/program/`, buildProgram('Wiosna')))
      .body as SprinklerDetail;
    const programId = stored.programs[0]!.id;
    expect((await detail()).programs.map((program) => program.name)).toEqual(['Wiosna']);
    await writerAdmin.patch(`/api/sprinkler/${sprinkler.id}/program/${programId}/`, buildProgram('Lato'));
    expect((await detail()).programs.map((program) => program.name)).toEqual(['Lato']);
    await writerAdmin.delete(`/api/sprinkler/${sprinkler.id}/program/${programId}/`);
    expect((await detail()).programs).toEqual([]);
  });

  it('shows users granted and revoked, and their new names; a revoked user is refused at once', async () => {
    const { sprinkler, farmer, detail } = await cachedMachine();
    const neighbour = await reader.signedInUser();
    const neighbourDetail = () => neighbour.client.get(`/api/sprinkler/${sprinkler.id}/`);
    expect((await neighbourDetail()).status).toBe(404);
    await writerAdmin.patch(`/api/sprinkler/${sprinkler.id}/permissions/`, {
      user: neighbour.user.id,
      action: 'grant',
    });
    expect((await detail()).users.map((user) => user.id).sort()).toEqual([farmer.user.id, neighbour.user.id].sort());
    expect((await neighbourDetail()).status).toBe(200);
    await writerAdmin.patch(`/api/user/${neighbour.user.id}/`, { first_name: 'Zofia', last_name: 'Nowak' });
    expect((await detail()).users.find((user) => user.id === neighbour.user.id)).toMatchObject({
      first_name: 'Zofia',
      last_name: 'Nowak',
    });
    await writerAdmin.patch(`/api/sprinkler/${sprinkler.id}/permissions/`, {
      user: neighbour.user.id,
      action: 'revoke',
    });
    expect((await neighbourDetail()).status).toBe(404);
    expect((await detail()).users.map((user) => user.id)).toEqual([farmer.user.id]);
  });

  it('shows each new live report and the program the machine runs', async () => {
    const { sprinkler, detail } = await cachedMachine();
    const report = async (angle: number) => {
      const values = {
        reportedAt: new Date(),
        status: 'front' as const,
        angle,
        distance: 400,
        programName: 'Wiosna',
        programData: buildProgram('Wiosna').programData,
        programUploadedAt: new Date(Date.now() - 1000),
      };
      await database.db
        .insert(machineState)
        .values({ machineId: sprinkler.internalId, ...values })
        .onConflictDoUpdate({ target: machineState.machineId, set: values });
    };
    await report(90);
    expect(await detail()).toMatchObject({ angle: 90, status: 'front', currentProgramData: { name: 'Wiosna' } });
    await report(91.5);
    expect((await detail()).angle).toBe(91.5);
  });

  it('shows a new weather reading with the rain it adds, and a new soil reading, at once', async () => {
    const { sprinkler, detail } = await cachedMachine();
    const reading = (minutesAgo: number, temperature: number, rain: number) => ({
      stationId: `WS-${sprinkler.id}`,
      ts: new Date(Date.now() - minutesAgo * 60_000),
      lat: 52.21,
      lng: 17.1,
      temperature,
      humidity: 60,
      rain,
      wind: 2,
    });
    await database.db.insert(weatherReadings).values(reading(20, 18, 0.5));
    const first = (await detail()).weather_stations;
    expect(first).toMatchObject([{ id: `WS-${sprinkler.id}`, temperature: 18 }]);
    await database.db.insert(weatherReadings).values(reading(10, 21, 1.5));
    const [station] = (await detail()).weather_stations;
    expect(station).toMatchObject({ temperature: 21, rainfall_7d: 2 });

    await database.db
      .insert(soilSensors)
      .values({ sensorId: `SOIL-${sprinkler.id}`, ts: new Date(), lat: 52.2, lng: 17.101, moisture: 31 });
    expect((await detail()).humidity_sensors).toEqual([[52.2, 17.101, 31]]);
    await database.db
      .update(soilSensors)
      .set({ moisture: 28 })
      .where(eq(soilSensors.sensorId, `SOIL-${sprinkler.id}`));
    expect((await detail()).humidity_sensors).toEqual([[52.2, 17.101, 28]]);
  });
});

describe('LruCache', () => {
  const entry = (id: number) => ({ id });

  it('keeps only the entries used most recently', () => {
    const cache = new LruCache<number, { id: number }>(2);
    cache.set(1, entry(1));
    cache.set(2, entry(2));
    expect(cache.get(1)).toEqual({ id: 1 });
    cache.set(3, entry(3));
    expect(cache.size).toBe(2);
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toEqual({ id: 1 });
    expect(cache.get(3)).toEqual({ id: 3 });
  });
});

describe('compiledSerializerCompiler', () => {
  it('is refused a schema that is not zod', () => {
    expect(() => compiledSerializerCompiler({ schema: { type: 'object' } })).toThrow(/zod schema/);
  });

  it('writes positions with and without altitude as the zod serializer does', () => {
    const schema = z.object({ areaMap: GeoJsonSchema });
    const ring = [
      [17.031_234_5, 52.000_001],
      [-0.000_001, -89.999_999, 123.456],
      [179.9, 0, -12],
      [17.031_234_5, 52.000_001],
    ];
    const value = {
      areaMap: {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1e-7, -1.5, 3] },
          { type: 'MultiPolygon', coordinates: [[ring], [ring.map(([lng, lat]) => [lng!, lat!])]] },
        ],
      },
    };
    const compiled = compiledSerializerCompiler({ schema });
    const zodSerializer = serializerCompiler({ schema, method: 'GET', url: '/' }) as (data: unknown) => string;
    expect(compiled(value)).toBe(zodSerializer(value));
    expect(JSON.parse(compiled(value))).toEqual(value);
  });

  it('writes a 10,000-corner map and seasons of every kind at once, the first time too, as the zod serializer does', () => {
    // fast-json-stringify settled a union by ajv, which compiled the whole answer's schema the
    // first time a route answered: about 400 ms of the event loop for this map on a quiet machine.
    const value = {
      areaMap: {
        type: 'FeatureCollection',
        features: features(
          5,
          (lng, lat) => [combRing(1998, lng, lat)],
          (index) => ({ kind: 'crop', name: `Pole ${index}` }),
          {
            lng: 17.2,
            lat: 52.3,
          },
        ),
      },
      seasons: [
        { name: 'Kukurydza 2026', polygon: 'Pole 0', crop: 'maize-grain', emergence: '05.05.2026', soil: 'loamy-sand' },
        {
          name: 'Własna 2026',
          polygon: null,
          crop: { kc: [0.5, 1.15, 0.75], stages: [30, 35, 50, 30], rootDepth: [0.15, 0.4], p: 0.35 },
          emergence: '01.05.2026',
          soil: { fieldCapacity: 0.3, wiltingPoint: 0.12 },
          p: 0.4,
          efficiency: 0.8,
        },
      ],
    };
    const compiled = compiledSerializerCompiler({ schema: AreaMapImportResultSchema });
    const started = performance.now();
    const written = compiled(value);
    expect(performance.now() - started).toBeLessThan(100);
    const zodSerializer = serializerCompiler({ schema: AreaMapImportResultSchema, method: 'PUT', url: '/' }) as (
      data: unknown,
    ) => string;
    expect(written).toBe(zodSerializer(value));
  });
});
