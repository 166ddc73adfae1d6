import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { buildProgram, buildSprinkler, squareSector } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

const JWT_SECRET = 'a-test-secret-of-well-over-thirty-two-characters';
const TOO_LARGE_ID = 2_147_483_648;

/** Area maps nested `depth` levels deep in three places, written out as a hostile client sends them. */
function deeplyNestedAreaMaps(depth: number): string[] {
  const coordinates = `${'['.repeat(depth)}17,52${']'.repeat(depth)}`;
  const inPolygon = `{"type":"Feature","geometry":{"type":"Polygon","coordinates":${coordinates}},"properties":{}}`;
  const properties = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const inProperties = `{"type":"Feature","geometry":null,"properties":${properties}}`;
  const point = '{"type":"Point","coordinates":[17,52]}';
  const collections = `${'{"type":"GeometryCollection","geometries":['.repeat(depth)}${point}${']}'.repeat(depth)}`;
  const inCollections = `{"type":"Feature","geometry":${collections},"properties":{}}`;
  return [inPolygon, inProperties, inCollections].map(
    (feature) => `{"areaMap":{"type":"FeatureCollection","features":[${feature}]}}`,
  );
}

describe('requests that once answered 500', () => {
  let t: TestApp;
  let admin: ApiClient;
  let machineId: number;
  beforeAll(async () => {
    t = await createTestApp({ JWT_SECRET });
    admin = await t.adminClient();
    machineId = (await buildSprinkler(t)).id;
  });
  afterAll(() => t.close());

  const expectQueryError = (response: { status: number; body: unknown }) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_error' });
  };

  it('refuses a NUL character in any text: names, searches, sector names, the area map', async () => {
    expectQueryError(await admin.post(`/api/sprinkler/${machineId}/program/`, buildProgram('Kuku\u0000rydza')));
    expectQueryError(
      await admin.post(
        `/api/sprinkler/${machineId}/program/`,
        buildProgram('Maize', [squareSector('N\u0000orth', 12)]),
      ),
    );
    expectQueryError(await admin.patch(`/api/sprinkler/${machineId}/`, { name: 'Pivot\u0000' }));
    expectQueryError(await admin.patch('/api/user/', { company: 'Farm\u0000' }));
    expectQueryError(await admin.get('/api/user/list/', { query: { search: 'a\u0000' } }));
    const areaMap = {
      type: 'FeatureCollection',
      features: [{ ...squareSector('Field', 0), properties: { name: '\u0000' } }],
    };
    expectQueryError(await admin.patch(`/api/sprinkler/${machineId}/`, { areaMap }));
  });

  it('refuses ids beyond what the database holds, in paths, queries and bodies', async () => {
    expectQueryError(await admin.get(`/api/sprinkler/${TOO_LARGE_ID}/`));
    expectQueryError(await admin.delete(`/api/user/${TOO_LARGE_ID}/`));
    expectQueryError(await admin.get('/api/user/list/', { query: { exclude: TOO_LARGE_ID } }));
    expectQueryError(await admin.get('/api/sprinkler/list/', { query: { exclude: TOO_LARGE_ID } }));
    expectQueryError(
      await admin.patch(`/api/sprinkler/${machineId}/permissions/`, { user: TOO_LARGE_ID, action: 'grant' }),
    );
  });

  it('refuses an area map nested 5,000 deep, and keeps answering', async () => {
    const headers = { 'content-type': 'application/json' };
    for (const body of deeplyNestedAreaMaps(5000)) {
      expectQueryError(await admin.request('PATCH', `/api/sprinkler/${machineId}/`, body, { headers }));
    }
    expect((await admin.get(`/api/sprinkler/${machineId}/`)).status).toBe(200);
  });

  it('answers 401 to a token signed with the right key that names no valid user or session', async () => {
    const admin = await t.app.users.findFirstAdmin();
    const sign = (subject: string, sid: string) =>
      new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setIssuer('pivot-dashboard')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(JWT_SECRET));
    const tokens = [
      await sign(String(admin!.id), 'not-a-session-id'),
      await sign(String(TOO_LARGE_ID), '00000000-0000-4000-8000-000000000000'),
      await sign('1e3', '00000000-0000-4000-8000-000000000000'),
    ];
    for (const token of tokens) {
      const client = t.client();
      client.access = token;
      const response = await client.get('/api/user/');
      expect(response.status, token).toBe(401);
    }
  });
});
