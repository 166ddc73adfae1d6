import { topics } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { registerController } from '../support/devices';
import { type TestApp, createTestApp } from '../support/test-app';

const MACHINE = `POISON-${Date.now().toString(36)}`;

describe('reports no machine could send', () => {
  let t: TestApp;
  let controller: mqtt.MqttClient;
  beforeAll(async () => {
    t = await createTestApp();
    const secret = await registerController(t.app, MACHINE);
    controller = await mqtt.connectAsync(t.app.mqttUrl, {
      protocolVersion: 4,
      clientId: MACHINE,
      username: MACHINE,
      password: secret,
    });
  });
  afterAll(async () => {
    await controller.endAsync();
    await t.close();
  });

  it('are dropped before they are stored, and the reports after them are stored', async () => {
    const now = Date.now();
    const good = { v: 1, ts: now, status: 'front', angle: 10, distance: 400, speed: 50, pressure: 2.4, flow: 90 };
    const poison = [
      { ...good, ts: now - 3, distance: 1e308 },
      { ...good, ts: 253402300800000 },
      { ...good, ts: now - 2, status: 'alarm', alarm: 'pressure\u0000loss' },
      { ...good, ts: now - 1, alarm: 'x'.repeat(1024 * 1024) },
      { ...good, ts: now - 4, flow: 1e308 },
      // A clock a month fast would hold the machine's shown state for a month; one a week and a day behind is no backfill.
      { ...good, ts: now + 30 * 24 * 60 * 60_000 },
      { ...good, ts: now - 8 * 24 * 60 * 60_000 },
    ];
    for (const message of [...poison, good]) {
      await controller.publishAsync(topics.telemetry(MACHINE), JSON.stringify(message), { qos: 1 });
    }
    await expect
      .poll(async () => {
        await t.app.telemetry.flush();
        return t.database.db.select().from(telemetry).where(eq(telemetry.machineId, MACHINE));
      })
      .toHaveLength(1);
    const [stored] = await t.database.db.select().from(telemetry).where(eq(telemetry.machineId, MACHINE));
    expect(stored!.ts.getTime()).toBe(now);
    const [state] = await t.app.telemetry.statesOf(t.database.db, [MACHINE]).then((states) => [...states.values()]);
    expect(state!.reportedAt!.getTime()).toBe(now);
    expect((await t.client().get('/api/health')).body).toMatchObject({ status: 'ok' });
  });
});
