import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { topics } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { createTestDatabase } from '../support/database';
import { registerController } from '../support/devices';
import { type PrivateMosquitto, startPrivateMosquitto } from '../support/private-mosquitto';
import { type TestApp, createTestApp } from '../support/test-app';

/**
 * On an external broker the server keeps its session: what machines report while it restarts
 * waits for it at the broker. And on MQTT 5 a command carries its expiry, so the broker drops
 * one that nobody waits for before a machine that was away can act on it.
 */
describe('the server on a broker that keeps its session', () => {
  let mosquitto: PrivateMosquitto;
  let database: DatabaseHandle;
  let dataDir: string;
  let t: TestApp | undefined;
  const machineId = `SESSION-${Date.now().toString(36)}`;
  let secret: string;

  const start = () =>
    createTestApp(
      {
        MQTT_URL: mosquitto.url,
        MQTT_SHARED_GROUP: 'pivot-api',
        MQTT_USERNAME: mosquitto.admin.username,
        MQTT_PASSWORD: mosquitto.admin.password,
        MQTT_DEVICE_AUTH: 'mosquitto-dynsec',
        MQTT_SESSION_EXPIRY_SECONDS: '600',
        SERVER_ID: 'session-test',
        DATA_DIR: dataDir,
      },
      { database },
    );
  const controller = (clean: boolean) =>
    mqtt.connectAsync(mosquitto.url, {
      clientId: machineId,
      username: machineId,
      password: secret,
      clean,
      reconnectPeriod: 0,
    });

  beforeAll(async () => {
    mosquitto = await startPrivateMosquitto();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-session-'));
    t = await start();
    secret = await registerController(t.app, machineId);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await mosquitto?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('speaks MQTT 5 with the broker', () => {
    expect(t!.app.gateway.protocolVersion).toBe(5);
  });

  it('stores the reports published while it was restarting', async () => {
    await t!.close();
    t = undefined;
    const reporter = await controller(true);
    const first = Date.now() - 10_000;
    for (let index = 0; index < 20; index += 1) {
      const report = {
        v: 1,
        ts: first + index,
        status: 'front',
        angle: index,
        distance: 300,
        speed: 50,
        pressure: 2,
        flow: 80,
      };
      // Acknowledged by the broker while no server is connected.
      await reporter.publishAsync(topics.telemetry(machineId), JSON.stringify(report), { qos: 1 });
    }
    await reporter.endAsync();

    t = await start();
    await expect
      .poll(
        async () => {
          await t!.app.telemetry.flush();
          return (await database.db.select().from(telemetry).where(eq(telemetry.machineId, machineId))).length;
        },
        { timeout: 10_000 },
      )
      .toBe(20);
  });

  it('lets the broker drop a command once it expired, before a machine that was away takes it', async () => {
    // The machine's session holds its subscription while it is away.
    const away = await controller(false);
    await away.subscribeAsync(topics.commands(machineId), { qos: 1 });
    await away.endAsync();

    const outcome = await t!.app.gateway.command(machineId, { type: 'identify' });
    expect(outcome).toEqual({ kind: 'timeout' });
    // Past the command's expiry, whole seconds as MQTT 5 counts them.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    // Listening before it connects: the broker hands a session's queue over right after connecting.
    const received: string[] = [];
    const back = mqtt.connect(mosquitto.url, {
      clientId: machineId,
      username: machineId,
      password: secret,
      clean: false,
      reconnectPeriod: 0,
    });
    back.on('message', (topic) => received.push(topic));
    await new Promise((resolve) => back.once('connect', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await back.endAsync();
    expect(received).toEqual([]);
  });
});
