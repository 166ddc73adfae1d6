import { MACHINE_LIMITS, QuarantineListResponseSchema, topics } from '@pivot/contracts';
import { asc, eq } from 'drizzle-orm';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armLine } from '../../src/geo/geo';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import type { ApiClient } from '../support/api-client';
import { addBareController } from '../support/devices';
import { type TestApp, createTestApp } from '../support/test-app';

const MACHINE = `ARM-${Date.now().toString(36)}`;
const CENTRE = { lat: 52.2, lng: 17.1 };
const ARM_LENGTH = 300;

describe("a report that reaches beyond its machine's arm", () => {
  let t: TestApp;
  let admin: ApiClient;
  let controller: mqtt.MqttClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    ({ controller } = await addBareController(t.app, admin, MACHINE, { ...CENTRE, armLength: ARM_LENGTH }));
  });
  afterAll(async () => {
    await controller.endAsync();
    await t.close();
  });

  it('is set aside, and the reports within its reach (end gun included) are stored', async () => {
    const now = Date.now();
    const report = { v: 1, status: 'front', angle: 90, speed: 50, pressure: 2.4, flow: 90 };
    const reach = ARM_LENGTH + MACHINE_LIMITS.endGunMarginM;
    const sent = [
      { ts: now - 4, distance: ARM_LENGTH, stored: true },
      { ts: now - 3, distance: reach, stored: true },
      { ts: now - 2, distance: reach + 1, stored: false },
      // A GPS arm that ends 500 m from the pivot: drawn there, it would lie about where the machine is.
      { ts: now - 1, distance: ARM_LENGTH, position: armLine(CENTRE, 90, 500), stored: false },
      { ts: now, distance: ARM_LENGTH, position: armLine(CENTRE, 90, ARM_LENGTH + 20), stored: true },
    ];
    for (const { ts, distance, position } of sent) {
      const message = { ...report, ts, distance, ...(position ? { position } : {}) };
      await controller.publishAsync(topics.telemetry(MACHINE), JSON.stringify(message), { qos: 1 });
    }

    const sentTs = new Set(sent.map((entry) => entry.ts));
    const storedTs = async () => {
      await t.app.telemetry.flush();
      const rows = await t.database.db
        .select({ ts: telemetry.ts })
        .from(telemetry)
        .where(eq(telemetry.machineId, MACHINE))
        .orderBy(asc(telemetry.ts));
      // The simulator reported too while it was connected: only the reports of this test count.
      return rows.map((row) => row.ts.getTime()).filter((ts) => sentTs.has(ts));
    };
    const expectedStored = sent.filter((entry) => entry.stored).map((entry) => entry.ts);
    await expect.poll(storedTs).toEqual(expectedStored);

    const setAside = async () => {
      const response = await admin.get('/api/quarantine/', { query: { pageSize: 20 } });
      return QuarantineListResponseSchema.parse(response.body).data.filter((entry) => entry.machineId === MACHINE);
    };
    await expect.poll(setAside).toHaveLength(2);
    const entries = await setAside();
    expect(entries.every((entry) => entry.reason === 'beyond_arm')).toBe(true);
    expect(entries.map((entry) => entry.detail).sort()).toEqual([
      `distance ${reach + 1} m is beyond its reach: the machine's arm is 300 m, and an end gun may add 60 m`,
      expect.stringMatching(/^position \[[\d.]+, [\d.]+\] is 500 m from the pivot, beyond its reach/),
    ]);
  });
});
