import { LogListResponseSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EmbeddedBroker } from '../../src/gateway/embedded-broker';
import type { ApiClient } from '../support/api-client';
import { createAppOnOwnBroker } from '../support/broker';
import { registerController } from '../support/devices';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD } from '../support/test-app';

/**
 * A command that cannot reach its machine is refused at once, with a clear message, and logged;
 * nothing is queued to run later (docs/product.md#states): not to a machine known to be offline, not while
 * the broker is away.
 */
describe('commands that cannot reach the machine', () => {
  let broker: EmbeddedBroker;
  let brokerClosed = false;
  let t: TestApp;
  let farmer: ApiClient;
  let admin: ApiClient;
  let machine: { id: number; internalId: string };

  beforeAll(async () => {
    // A broker of the test's own, so that it can be taken away under the server.
    ({ broker, t } = await createAppOnOwnBroker({ COMMAND_TIMEOUT_MS: '5000' }));
    admin = await t.adminClient();
    machine = await buildSprinkler(t);
    await registerController(t.app, machine.internalId);
    const user = await t.buildUser();
    await grant(t, machine.id, user.id);
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
    if (!brokerClosed) await broker.close();
  });

  async function presence(online: boolean) {
    t.app.telemetry.handlers.presence(
      { machineId: machine.internalId, deviceId: machine.internalId },
      { v: 1, online, ts: Date.now() },
    );
    await vi.waitFor(async () => {
      const state = (await t.app.telemetry.statesOf(t.database.db, [machine.internalId])).get(machine.internalId);
      expect(state?.online).toBe(online);
    });
  }

  async function lastLogEntry() {
    return LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 1 } })).body).data[0];
  }

  it('reaches a broker that speaks MQTT 3.1.1 only (aedes refuses MQTT 5)', async () => {
    await vi.waitFor(() => expect(t.app.gateway.connected).toBe(true), { timeout: 5000 });
    expect(t.app.gateway.protocolVersion).toBe(4);
  });

  it('refuses a motion to a machine known to be offline: 409 at once, logged, in the user’s language', async () => {
    await presence(false);
    const started = Date.now();
    const response = await farmer.post(
      `/api/sprinkler/${machine.id}/motion`,
      { motion: 'front' },
      {
        headers: { 'accept-language': 'pl' },
      },
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'sprinkler_offline' });
    expect(await lastLogEntry()).toMatchObject({
      eventType: 'sprinkler_motion_failure',
      event: 'front',
      details: 'not sent: the machine is offline',
    });
  });

  it('refuses a command while the broker is away: 503 at once, and logged', async () => {
    await presence(true);
    await broker.close();
    brokerClosed = true;
    await vi.waitFor(async () =>
      expect((await t.client().get('/api/health')).body).toMatchObject({ broker: 'unreachable' }),
    );
    const started = Date.now();
    const response = await farmer.post(`/api/sprinkler/${machine.id}/motion`, { motion: 'back' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'broker_unreachable' });
    expect(await lastLogEntry()).toMatchObject({
      eventType: 'sprinkler_motion_failure',
      event: 'back',
      details: 'not sent: the message broker cannot be reached',
    });
  });
});
