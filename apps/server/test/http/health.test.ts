import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/test-app';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('health without the broker', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One connection (no shared group): each waits 5 s for the broker at start, two would take Fastify's 10 s start limit.
    t = await createTestApp({
      MQTT_URL: `mqtt://127.0.0.1:${await closedPort()}`,
      MQTT_PASSWORD: 'unused',
      MQTT_SHARED_GROUP: '',
    });
  });
  afterAll(() => t.close());

  it('is degraded, still 200, and says the broker cannot be reached', async () => {
    const response = await t.client().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'degraded',
      broker: 'unreachable',
      problems: [expect.stringMatching(/^broker_unreachable: the MQTT broker cannot be reached/)],
    });
  });
});
