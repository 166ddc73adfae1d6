import { MAX_CORNERS_PER_MESSAGE, MAX_ID, MAX_MUTED_MACHINES, MAX_POLYGON_CORNERS } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT, GEOMETRY_BODY_LIMIT } from '../../src/http/body-limits';
import type { ApiClient } from '../support/api-client';
import { buildProgram, buildSprinkler } from '../support/fixtures';
import { ADMIN_EMAIL, type TestApp, createTestApp } from '../support/test-app';

/** A sector shaped as a regular polygon of `corners` corners around the machine: a field drawn in detail. */
function detailedSector(name: string, corners: number) {
  const ring: [number, number][] = [];
  for (let corner = 0; corner < corners; corner += 1) {
    const angle = (2 * Math.PI * corner) / corners;
    ring.push([17.1 + 0.001 * Math.cos(angle), 52.2 + 0.0006 * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  return {
    type: 'Feature' as const,
    geometry: { type: 'Polygon' as const, coordinates: [ring] },
    properties: { name, rate: 12 },
  };
}

const sizeOf = (body: unknown) => Buffer.byteLength(JSON.stringify(body));

describe('request body limits', () => {
  let t: TestApp;
  let admin: ApiClient;
  let machineId: number;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    machineId = (await buildSprinkler(t)).id;
  });
  afterAll(() => t.close());

  it('refuses a 2 MB sign-in with 413 before parsing it, in the language of the page', async () => {
    const body = { email: ADMIN_EMAIL, password: 'x'.repeat(2_000_000), remember: false };
    const polish = await t.client().post('/api/user/login/', body);
    expect(polish.status).toBe(413);
    expect(polish.body).toEqual({
      code: 'payload_too_large',
      message: 'Żądanie zawiera więcej danych, niż serwer tu przyjmuje - wyślij mniej naraz',
    });
    const english = await t.client().post('/api/user/login/', body, { headers: { 'accept-language': 'en-GB,en' } });
    expect(english.status).toBe(413);
    expect(english.body).toEqual({
      code: 'payload_too_large',
      message: 'The request carries more data than the server accepts here - send less at once',
    });
  });

  it('refuses by Content-Length alone, without reading the body', async () => {
    const headers = { 'content-type': 'application/json', 'content-length': String(BODY_LIMIT + 1) };
    const answer = await t.client().request('POST', '/api/user/login/', '{}', { headers });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'payload_too_large' });
  });

  it('holds every ordinary route to 64 KiB, and a signed-in user reads why in their own language', async () => {
    const english = await t.buildUser({ language: 'en' });
    const user = t.client();
    await user.login(english.email, 'User-Password-1');
    const justUnder = await user.patch('/api/user/', { company: 'Farm', first_name: 'Jan' });
    expect(justUnder.status).toBe(200);
    const over = await user.patch('/api/user/', { company: 'x'.repeat(BODY_LIMIT) });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/^The request/) });
    const motion = await admin.post(`/api/sprinkler/${machineId}/motion`, {
      motion: 'stop',
      padding: 'x'.repeat(BODY_LIMIT),
    });
    expect(motion.status).toBe(413);
  });

  it('takes the longest list of muted machines the contract allows, at the largest IDs, within the ordinary limit', async () => {
    const mutedMachineIds = Array.from({ length: MAX_MUTED_MACHINES }, (_, index) => MAX_ID - index);
    const settings = { kinds: ['alarm'], channels: ['in_app'], mutedMachineIds };
    expect(sizeOf(settings)).toBeLessThan(BODY_LIMIT);
    const saved = await admin.put('/api/account/alerts/', settings);
    expect(saved.status).toBe(200);
    const tooMany = { ...settings, mutedMachineIds: [...mutedMachineIds, MAX_ID - MAX_MUTED_MACHINES] };
    expect((await admin.put('/api/account/alerts/', tooMany)).status).toBe(400);
  });

  it("takes a program whose sectors are drawn in detail, the corner budget's worth, and keeps the limit's 413 above it", async () => {
    const program = buildProgram(
      'Detailed',
      Array.from({ length: MAX_CORNERS_PER_MESSAGE / MAX_POLYGON_CORNERS }, (_, index) =>
        detailedSector(`Sector ${index + 1}`, MAX_POLYGON_CORNERS),
      ),
    );
    expect(sizeOf(program)).toBeGreaterThan(BODY_LIMIT * 5);
    const created = await admin.post(`/api/sprinkler/${machineId}/program/`, program);
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const programId = (created.body as { programs: { id: number; name: string }[] }).programs.find(
      (stored) => stored.name === 'Detailed',
    )!.id;
    const updated = await admin.patch(`/api/sprinkler/${machineId}/program/${programId}/`, {
      ...program,
      name: 'Detailed again',
    });
    expect(updated.status).toBe(200);

    const tooLarge = buildProgram(
      'Too detailed',
      Array.from({ length: 100 }, (_, index) => detailedSector(`Sector ${index + 1}`, MAX_POLYGON_CORNERS)),
    );
    expect(sizeOf(tooLarge)).toBeGreaterThan(GEOMETRY_BODY_LIMIT);
    const refused = await admin.post(`/api/sprinkler/${machineId}/program/`, tooLarge);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'payload_too_large' });
  });

  it("takes a detailed area map on the machine's update", async () => {
    const areaMap = {
      type: 'FeatureCollection',
      features: Array.from({ length: MAX_CORNERS_PER_MESSAGE / MAX_POLYGON_CORNERS }, (_, index) =>
        detailedSector(`Crop ${index + 1}`, MAX_POLYGON_CORNERS),
      ).map((feature) => ({ ...feature, properties: { kind: 'crop', name: feature.properties.name } })),
    };
    expect(sizeOf(areaMap)).toBeGreaterThan(BODY_LIMIT * 5);
    const updated = await admin.patch(`/api/sprinkler/${machineId}/`, { areaMap });
    expect(updated.status).toBe(200);
  });

  it('asks who is calling before it reads a large body: an anonymous one is refused first', async () => {
    const program = buildProgram('Anonymous', [detailedSector('North', 5000)]);
    const anonymous = await t.client().post(`/api/sprinkler/${machineId}/program/`, program);
    expect(anonymous.status).toBe(401);
  });
});
