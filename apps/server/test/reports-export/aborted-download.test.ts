import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const COMMAND_TIMEOUT_MS = 3_000;

describe('a download its client stopped reading, as the server closes', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let sprinklerId: number;
  let address: string;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw', COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) });
    const pivot = await buildSprinkler(t, {});
    sprinklerId = pivot.id;
    const user = await t.buildUser();
    await grant(t, pivot.id, user.id);
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    // Some 1.3 MB of CSV: more than the sockets' buffers hold, so the answer waits for its reader.
    const start = Date.parse('2026-07-01T00:00:00Z');
    for (let day = 0; day < 10; day += 1) {
      await t.database.db.insert(telemetry).values(
        Array.from({ length: 2_000 }, (_, index) => ({
          machineId: pivot.internalId,
          ts: new Date(start + day * 86_400_000 + index * 5_000),
          status: 'front' as const,
          angle: index % 360,
          distance: 400,
          speed: 60,
          pressure: 2.4,
          flow: 85,
        })),
      );
    }
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(() => t.close());

  it('is cut once the command timeout and a grace have passed, so the server closes', async () => {
    const response = await fetch(
      `${address}/api/sprinkler/${sprinklerId}/reports.csv?start=01.07.2026&stop=10.07.2026`,
      { headers: { authorization: `Bearer ${farmer.access}` } },
    );
    expect(response.status).toBe(200);
    // The answer began and its reader reads no further, holding the connection open.
    const connections = () => new Promise<number>((resolve) => t.app.server.getConnections((_e, n) => resolve(n)));
    expect(await connections()).toBe(1);

    const started = Date.now();
    const serverClosed = new Promise<number>((resolve) =>
      t.app.server.once('close', () => resolve(Date.now() - started)),
    );
    const appClosed = t.app.close();
    const closedAfter = await serverClosed;
    await appClosed;
    expect(closedAfter).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS);
    expect(closedAfter).toBeLessThan(COMMAND_TIMEOUT_MS + 5_000 + 2_000);
  }, 120_000);
});
