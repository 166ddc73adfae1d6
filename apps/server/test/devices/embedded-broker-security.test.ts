import {
  DeviceListResponseSchema,
  DeviceSecretResponseSchema,
  LogListResponseSchema,
  PROTOCOL_VERSION,
  topics,
} from '@pivot/contracts';
import { PivotMachine } from '@pivot/simulator';
import { eq, sql } from 'drizzle-orm';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SecretBox } from '../../src/secret-box';
import { deviceCredentials } from '../../src/modules/devices/devices.table';
import type { ApiClient } from '../support/api-client';
import { registerController } from '../support/devices';
import { type TestApp, createTestApp } from '../support/test-app';

/**
 * An attacker on the farm's network against the embedded broker `npm start` runs: with no secret,
 * with a wrong one, with another machine's, with a replaced one.
 */
describe('the embedded broker lets in only registered controllers, each to its own topics', () => {
  let t: TestApp;
  let admin: ApiClient;
  const opened: { end: (force?: boolean) => unknown }[] = [];
  let counter = 0;

  beforeAll(async () => {
    // This file is about the embedded broker, even where the other tests run on a shared one.
    t = await createTestApp({ MQTT_URL: '', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' });
    admin = await t.adminClient();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.end(true)));
  });
  afterAll(() => t.close());

  const uniqueId = (label: string) => `${label}-${(counter += 1)}-${Date.now().toString(36)}`;

  /** Connects and resolves with the client, or rejects with the broker's refusal. */
  async function connect(options: IClientOptions): Promise<MqttClient> {
    const client = await mqtt.connectAsync(t.app.mqttUrl, { reconnectPeriod: 0, connectTimeout: 3000, ...options });
    opened.push(client);
    return client;
  }

  async function refusal(options: IClientOptions): Promise<string> {
    const attempt = connect(options);
    await expect(attempt).rejects.toThrow();
    return String(await attempt.catch((error: unknown) => (error as Error).message));
  }

  async function startMachine(id: string, secret: string) {
    const machine = new PivotMachine({ brokerUrl: t.app.mqttUrl, id, secret, lat: 52.2, lng: 17.1, armLength: 300 });
    await machine.start();
    opened.push({ end: () => machine.stop() });
    return machine;
  }

  it('refuses anonymous clients, wrong secrets and unknown IDs', async () => {
    const id = uniqueId('SEC');
    const secret = await registerController(t.app, id);
    expect(await refusal({ clientId: id })).toMatch(/Not authorized/i);
    expect(await refusal({ clientId: id, username: id, password: 'guess' })).toMatch(/Not authorized/i);
    expect(await refusal({ clientId: 'GHOST', username: 'GHOST', password: secret })).toMatch(/Not authorized/i);
    expect(await refusal({ clientId: 'x', username: 'pivot-server', password: secret })).toMatch(/Not authorized/i);
    const accepted = await connect({ clientId: id, username: id, password: secret });
    expect(accepted.connected).toBe(true);
  });

  it('refuses a machine’s secret with another client id, so nobody takes a machine’s or the server’s session', async () => {
    const [a, b] = [uniqueId('A'), uniqueId('B')];
    const secretA = await registerController(t.app, a);
    const secretB = await registerController(t.app, b);
    const machineB = await startMachine(b, secretB);
    expect(await refusal({ clientId: b, username: a, password: secretA })).toMatch(/Not authorized/i);
    expect(await refusal({ clientId: b })).toMatch(/Not authorized/i);
    const serverClientId = `${t.app.brokerPolicy.server.username}-any-instance`;
    expect(await refusal({ clientId: serverClientId, username: a, password: secretA })).toMatch(/Not authorized/i);
    expect(machineB.state().connected).toBe(true);
    expect((await t.client().get('/api/health')).body).toMatchObject({ broker: 'connected' });
  });

  it('lets a machine subscribe to its own commands only: no wildcard, no $SYS, no other machine', async () => {
    const [a, b] = [uniqueId('A'), uniqueId('B')];
    const secretA = await registerController(t.app, a);
    await registerController(t.app, b);
    const client = await connect({ clientId: a, username: a, password: secretA });
    for (const filter of ['#', '$SYS/#', 'pivot/v1/machines/+/commands', topics.commands(b), topics.telemetry(b)]) {
      // SUBACK 128 for the filter: mqtt.js reports it as a failed subscription.
      await expect(client.subscribeAsync(filter, { qos: 1 }), filter).rejects.toThrow(/Subscribe error/);
    }
    expect(await client.subscribeAsync(topics.commands(a), { qos: 1 })).toEqual([
      { topic: topics.commands(a), qos: 1 },
    ]);
  });

  it('closes the connection of a machine that publishes to another machine’s topics, and stores nothing', async () => {
    const [a, b] = [uniqueId('A'), uniqueId('B')];
    const secretA = await registerController(t.app, a);
    await registerController(t.app, b);
    const forged = {
      v: PROTOCOL_VERSION,
      ts: Date.now(),
      status: 'alarm',
      angle: 0,
      distance: 1,
      speed: 0,
      pressure: 0,
      flow: 0,
    };
    for (const topic of [
      topics.telemetry(b),
      topics.weather(b, 'WS-FAKE'),
      topics.replies('anyone', b),
      topics.commands(b),
      topics.commands(a),
    ]) {
      const client = await connect({ clientId: a, username: a, password: secretA });
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.publish(topic, JSON.stringify(forged), { qos: 1 });
      await closed;
    }
    await t.app.telemetry.flush();
    expect(await t.app.telemetry.statesOf(t.database.db, [b])).toEqual(new Map());
  });

  it('takes a machine’s own reports, and only registered controllers’', async () => {
    const id = uniqueId('OWN');
    const machine = await startMachine(id, await registerController(t.app, id));
    await vi.waitFor(async () => {
      const states = await t.app.telemetry.statesOf(t.database.db, [machine.id]);
      expect(states.get(machine.id)).toMatchObject({ online: true });
    });
  });

  it('drops a controller’s live connection at once when it gets a new secret; the old one no longer works', async () => {
    const id = uniqueId('REKEY');
    const registered = await admin.post('/api/device/', { machineId: id });
    expect(registered.status).toBe(201);
    const { secret, device } = DeviceSecretResponseSchema.parse(registered.body);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(device).toMatchObject({ machineId: id, lastConnectedAt: null, onBroker: true });
    const live = await connect({ clientId: id, username: id, password: secret });
    const dropped = new Promise<void>((resolve) => live.once('close', () => resolve()));

    const replaced = await admin.post(`/api/device/${id}/secret/`);
    expect(replaced.status).toBe(200);
    const { secret: newSecret } = DeviceSecretResponseSchema.parse(replaced.body);
    expect(newSecret).not.toBe(secret);
    const started = Date.now();
    await dropped;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await refusal({ clientId: id, username: id, password: secret })).toMatch(/Not authorized/i);
    expect((await connect({ clientId: id, username: id, password: newSecret })).connected).toBe(true);

    // The connection and the refusal are recorded after the broker has answered, so a loaded host may show them later.
    await vi.waitFor(
      async () => {
        const listed = DeviceListResponseSchema.parse((await admin.get('/api/device/')).body).find(
          (d) => d.machineId === id,
        );
        expect(listed).toMatchObject({ lastAddress: '127.0.0.1', lastConnectedAt: expect.any(Number) });
        expect(listed?.lastRefusedAt).toEqual(expect.any(Number));
        const log = LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 10 } })).body).data;
        const about = log.filter((entry) => entry.sprinklerInternalId === id).map((entry) => entry.eventType);
        expect(about).toEqual(['device_connection_refused', 'device_secret_replaced', 'device_secret_created']);
      },
      { timeout: 10_000 },
    );
  });

  it('logs refused connections of a registered ID at a bounded rate, so an attacker cannot flood the log', async () => {
    const id = uniqueId('FLOOD');
    await registerController(t.app, id);
    for (let attempt = 0; attempt < 20; attempt += 1)
      await refusal({ clientId: id, username: id, password: `x${attempt}` });
    const refusalsLogged = async () =>
      LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 50 } })).body).data.filter(
        (entry) => entry.sprinklerInternalId === id && entry.eventType === 'device_connection_refused',
      ).length;
    await vi.waitFor(async () => expect(await refusalsLogged()).toBeGreaterThan(0), { timeout: 10_000 });
    expect(await refusalsLogged()).toBe(1);
  });

  it('drops the connection and refuses the controller once its credentials are removed', async () => {
    const id = uniqueId('GONE');
    const secret = await registerController(t.app, id);
    const live = await connect({ clientId: id, username: id, password: secret });
    const dropped = new Promise<void>((resolve) => live.once('close', () => resolve()));
    expect((await admin.delete(`/api/device/${id}/`)).status).toBe(204);
    await dropped;
    expect(await refusal({ clientId: id, username: id, password: secret })).toMatch(/Not authorized/i);
    expect((await admin.delete(`/api/device/${id}/`)).status).toBe(404);
  });

  it('seals, at its next login, the secret of a controller registered before sealing or sealed under another key', async () => {
    const id = uniqueId('OLDER');
    const secret = await registerController(t.app, id);
    const sealedOf = async () => {
      const [row] = await t.database.db
        .select({ sealed: deviceCredentials.secretSealed })
        .from(deviceCredentials)
        .where(eq(deviceCredentials.machineId, id));
      return row?.sealed;
    };
    expect(await sealedOf()).toMatch(/^v1\./);
    await t.database.db.execute(sql`update device_credentials set secret_sealed = null where machine_id = ${id}`);
    expect(await refusal({ clientId: id, username: id, password: 'guess' })).toMatch(/Not authorized/i);
    expect(await sealedOf()).toBeNull();
    await connect({ clientId: id, username: id, password: secret });
    await vi.waitFor(async () => expect(await sealedOf()).toMatch(/^v1\./));
    expect(await sealedOf()).not.toContain(secret);
    const underAnotherKey = new SecretBox('another key of 32 characters....', 'device').seal(id, secret);
    await t.database.db.execute(
      sql`update device_credentials set secret_sealed = ${underAnotherKey} where machine_id = ${id}`,
    );
    await connect({ clientId: `${id}`, username: id, password: secret });
    await vi.waitFor(async () => expect(await sealedOf()).not.toBe(underAnotherKey));
    expect(await sealedOf()).toMatch(/^v1\./);
  });

  it('keeps the controller calls to administrators, and checks what they are given', async () => {
    const user = await t.buildUser();
    const client = t.client();
    await client.login(user.email, 'User-Password-1');
    expect((await client.get('/api/device/')).status).toBe(403);
    expect((await client.post('/api/device/', { machineId: 'MINE' })).status).toBe(403);
    expect((await admin.post('/api/device/', { machineId: 'has space' })).status).toBe(400);
    expect((await admin.post('/api/device/', { machineId: 'x'.repeat(65) })).status).toBe(400);
    // The server's own broker ID (and its instances' IDs) is refused as reserved, not as taken.
    const reserved = await admin.post(
      '/api/device/',
      { machineId: 'pivot-server' },
      { headers: { 'accept-language': 'en' } },
    );
    expect(reserved.status).toBe(409);
    expect(reserved.body).toMatchObject({ code: 'device_id_reserved', message: expect.stringMatching(/server's own/) });
    const reservedPl = await admin.post(
      '/api/device/',
      { machineId: 'pivot-server-2' },
      { headers: { 'accept-language': 'pl' } },
    );
    expect(reservedPl.body).toMatchObject({ code: 'device_id_reserved', message: expect.stringMatching(/serwera/) });
    const id = uniqueId('TWICE');
    expect((await admin.post('/api/device/', { machineId: id })).status).toBe(201);
    const again = await admin.post('/api/device/', { machineId: id }, { headers: { 'accept-language': 'pl' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'device_exists' });
    expect((await admin.post('/api/device/NOBODY/secret/')).body).toMatchObject({ code: 'device_not_found' });
  });
});
