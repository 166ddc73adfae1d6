import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from './support/test-app';

describe('the server', () => {
  const t = useTestApp();

  it('answers health with the database it runs on', async () => {
    const response = await t.client().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ok',
      problems: [],
      database: t.database.kind,
      broker: 'connected',
      // On a shared broker (TEST_MQTT_URL) other tests' machines may have left retained reports.
      unregisteredReportsDropped: process.env.TEST_MQTT_URL ? expect.any(Number) : 0,
      reportsReceived: expect.any(Number),
      messagesUnstored: 0,
      liveStreams: { open: 0, bufferedKiB: 0, closedStalled: 0 },
      incidentLookMs: expect.objectContaining({ looks: expect.any(Number) }),
      eventLoopDelayMs: { p99: expect.any(Number), max: expect.any(Number) },
      memoryMb: expect.objectContaining({ resident: expect.any(Number) }),
    });
  });

  it("answers health with the instance's memory: V8's heap inside what is resident", async () => {
    const { memoryMb } = (await t.client().get('/api/health')).body as {
      memoryMb: { resident: number; heapTotal: number; heapUsed: number; external: number };
    };
    expect(memoryMb.heapUsed).toBeGreaterThan(1);
    expect(memoryMb.heapUsed).toBeLessThanOrEqual(memoryMb.heapTotal);
    expect(memoryMb.heapTotal).toBeLessThan(memoryMb.resident);
    expect(memoryMb.external).toBeGreaterThan(0);
  });

  it('answers health with how long the last minute of incident looks took', async () => {
    // On a shared database another test's server may hold the watch's lock at that moment, and a
    // look it makes is not this instance's: look until this one has looked.
    await vi.waitFor(
      async () => {
        await t.app.incidents.lookOnce();
        expect(t.app.incidents.lookTimes().looks).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    const response = await t.client().get('/api/health');
    expect(response.body).toMatchObject({
      incidentLookMs: { p95: expect.any(Number), max: expect.any(Number), looks: expect.any(Number) },
    });
    const { looks, p95, max } = (response.body as { incidentLookMs: { looks: number; p95: number; max: number } })
      .incidentLookMs;
    expect(looks).toBeGreaterThanOrEqual(1);
    expect(p95).toBeLessThanOrEqual(max);
  });

  it('sends security headers', async () => {
    const response = await t.client().get('/api/health');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('publishes an OpenAPI document generated from the shared schemas', async () => {
    const response = await t.client().get('/api/docs/json');
    expect(response.status).toBe(200);
    const document = response.body as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/user/login/', '/api/user/list/', '/api/logs/', '/api/user/{id}/']),
    );
    expect(JSON.stringify(document.paths['/api/user/login/']?.post?.requestBody)).toContain('remember');
  });

  it('answers unknown API paths with 404 in the error shape', async () => {
    const response = await t.client().get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'not_found' });
  });

  it('accepts paths with and without the trailing slash', async () => {
    expect((await t.client().get('/api/health/')).status).toBe(200);
  });
});
