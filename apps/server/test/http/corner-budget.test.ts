import {
  type ErrorBody,
  MAX_CORNERS_PER_MESSAGE,
  MAX_POLYGON_CORNERS,
  QuarantineListResponseSchema,
  topics,
} from '@pivot/contracts';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { registerController } from '../support/devices';
import { buildProgram, buildSprinkler, grant } from '../support/fixtures';
import { combRing, features } from '../support/hostile-shapes';
import { useTestApp } from '../support/test-app';

/** Combs of MAX_POLYGON_CORNERS corners a body may carry. */
const COMBS_IN_BUDGET = MAX_CORNERS_PER_MESSAGE / MAX_POLYGON_CORNERS;

/** `count` comb-shaped sectors of MAX_POLYGON_CORNERS corners each, side by side. */
function combSectors(count: number) {
  return features(
    count,
    (lng, lat) => [combRing(MAX_POLYGON_CORNERS, lng, lat)],
    (index) => ({ name: `Comb ${index + 1}`, rate: 12 }),
    { lng: 17.1, lat: 52.2 },
  );
}

describe(`the corner budget: at most ${MAX_CORNERS_PER_MESSAGE} corners a request or a controller's message`, () => {
  const t = useTestApp({}, { signInAdmin: true });

  it('takes a program of exactly the budget and refuses one corner group more with 413, in the page’s language', async () => {
    const pivot = await buildSprinkler(t);
    const full = COMBS_IN_BUDGET;
    const taken = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, buildProgram('Full', combSectors(full)));
    expect(taken.status).toBe(201);

    const over = buildProgram('Over', combSectors(full + 1));
    const polish = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, over);
    expect(polish.status).toBe(413);
    expect(polish.body).toEqual({
      code: 'too_many_corners',
      message: 'Przesłane kształty mają łącznie ponad 10\u00a0000 narożników - uprość je lub wyślij mniej naraz',
    } satisfies ErrorBody);
    const english = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, over, {
      headers: { 'accept-language': 'en' },
    });
    expect(english.status).toBe(413);
    expect((english.body as ErrorBody).message).toBe(
      'The shapes sent have more than 10,000 corners in all - simplify them or send fewer at once',
    );
    const programs = (await t.admin.get(`/api/sprinkler/${pivot.id}/`)).body as { programs: { name: string }[] };
    expect(programs.programs.map((program) => program.name)).toEqual(['Full']);
  });

  it('refuses the hostile area maps of a user with control at once, and stores nothing', async () => {
    const pivot = await buildSprinkler(t);
    const user = await t.buildUser({ language: 'en' });
    await grant(t, pivot.id, user.id, 'control');
    const client = t.client();
    await client.login(user.email, 'User-Password-1');
    const areaMapOf = (combs: number) => ({
      type: 'FeatureCollection',
      features: combSectors(combs).map((sector) => ({
        ...sector,
        properties: { kind: 'crop', name: sector.properties.name },
      })),
    });
    const started = performance.now();
    // 95 combs: the attack that held the server 21 s, now larger than a geometry body may be.
    const huge = await client.put(`/api/sprinkler/${pivot.id}/area-map/`, areaMapOf(95));
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 'payload_too_large' });
    const over = await client.put(`/api/sprinkler/${pivot.id}/area-map/`, areaMapOf(COMBS_IN_BUDGET + 1));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'too_many_corners', message: expect.stringMatching(/^The shapes sent/) });
    expect(performance.now() - started).toBeLessThan(2000);
    const detail = (await client.get(`/api/sprinkler/${pivot.id}/`)).body as { areaMap: unknown };
    expect(JSON.stringify(detail.areaMap)).not.toContain('Comb 1');
  });

  it("sets a controller's program message over the budget aside, saying why in the reader's terms", async () => {
    const machineId = `CORNERS-${Date.now().toString(36)}`;
    const secret = await registerController(t.app, machineId);
    const controller = await mqtt.connectAsync(t.app.mqttUrl, {
      protocolVersion: 4,
      clientId: machineId,
      username: machineId,
      password: secret,
    });
    try {
      const programData = {
        type: 'FeatureCollection',
        features: combSectors(MAX_CORNERS_PER_MESSAGE / MAX_POLYGON_CORNERS + 1),
      };
      const message = { v: 1, program: { name: 'Combs', uploadedAt: Date.now() - 60_000, programData } };
      const payload = JSON.stringify(message);
      expect(payload.length).toBeLessThan(512 * 1024);
      await controller.publishAsync(topics.program(machineId), payload, { qos: 1 });
      const listed = async () => {
        const response = await t.admin.get('/api/quarantine/', { query: { pageSize: 20 } });
        return QuarantineListResponseSchema.parse(response.body).data.filter((entry) => entry.machineId === machineId);
      };
      await expect.poll(listed).toHaveLength(1);
      const [entry] = await listed();
      expect(entry).toMatchObject({
        kind: 'program',
        reason: 'too_large',
        detail: `more than ${MAX_CORNERS_PER_MESSAGE} corners`,
        explanation: { code: 'too_many_corners', corners: expect.any(Number), limit: MAX_CORNERS_PER_MESSAGE },
      });
    } finally {
      await controller.endAsync();
    }
  });
});
