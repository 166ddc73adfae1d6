import { randomBytes } from 'node:crypto';
import { SprinklerListItemSchema, TelemetryMessageSchema, topicFilters, topics } from '@pivot/contracts';
import { PivotMachine, silentLogger } from '@pivot/simulator';
import { count, eq } from 'drizzle-orm';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { clearRetained, connectAsServer } from '../support/broker';
import { registerController } from '../support/devices';
import { createTestDatabase } from '../support/database';
import { type TestApp, createTestApp } from '../support/test-app';

/**
 * Two server instances over one database and one real broker, as docs/operations.md describes:
 * each machine message is stored by one of them, and both can command every machine.
 */
describe('two server instances on one broker', () => {
  let database: DatabaseHandle;
  let first: TestApp;
  let second: TestApp;
  let machine: PivotMachine;
  let watcher: mqtt.MqttClient;
  let published = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    const group = `scale-${randomBytes(4).toString('hex')}`;
    first = await createTestApp({ MQTT_SHARED_GROUP: group }, { database });
    second = await createTestApp({ MQTT_SHARED_GROUP: group }, { database });
    const id = `SCALE-${randomBytes(4).toString('hex')}`;
    machine = new PivotMachine({
      brokerUrl: first.app.mqttUrl,
      id,
      // Registered on the second instance: the first must admit its reports too, at once.
      secret: await registerController(second.app, id),
      lat: 52.3,
      lng: 17.3,
      armLength: 300,
      movingTelemetryMs: 50,
      logger: silentLogger,
    });
    // A plain subscriber counts every report the machine publishes, from its first.
    watcher = await connectAsServer(first.app);
    watcher.on('message', (topic, payload) => {
      if (topic !== topics.telemetry(machine.id)) return;
      if (TelemetryMessageSchema.safeParse(JSON.parse(payload.toString())).success) published += 1;
    });
    await watcher.subscribeAsync(topicFilters.telemetry, { qos: 1 });
    await machine.start();
  });
  afterAll(async () => {
    await machine.stop();
    await clearRetained(first.app, [topics.presence(machine.id), topics.program(machine.id)]);
    await first.close();
    await second.close();
    await database.close();
  });

  it('stores each report once and lets either instance command the machine', async () => {
    const firstAdmin = await first.adminClient();
    const added = await firstAdmin.post('/api/sprinkler/', { internalId: machine.id });
    expect(added.status).toBe(201);
    const { id } = SprinklerListItemSchema.parse(added.body);

    const secondAdmin = await second.adminClient();
    expect((await secondAdmin.post(`/api/sprinkler/${id}/motion`, { motion: 'front' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await machine.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await watcher.endAsync();
    await Promise.all([first.app.telemetry.flush(), second.app.telemetry.flush()]);

    const byFirst = first.app.telemetry.received(machine.id);
    const bySecond = second.app.telemetry.received(machine.id);
    const [stored] = await database.db
      .select({ value: count() })
      .from(telemetry)
      .where(eq(telemetry.machineId, machine.id));
    // Every report the machine published is stored, and each reached exactly one instance.
    expect(published).toBeGreaterThan(10);
    expect(stored?.value).toBe(published);
    expect(byFirst + bySecond).toBe(stored?.value);
    expect(byFirst).toBeGreaterThan(0);
    expect(bySecond).toBeGreaterThan(0);
  });
});
