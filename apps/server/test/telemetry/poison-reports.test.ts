import { QuarantineListResponseSchema, topics } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { registerController } from '../support/devices';
import { type TestApp, createTestApp } from '../support/test-app';

const MACHINE = `POISON-${Date.now().toString(36)}`;
const DAY_MS = 24 * 60 * 60_000;

describe('reports no machine could send', () => {
  let t: TestApp;
  let admin: ApiClient;
  let controller: mqtt.MqttClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
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

  it('are set aside with their reason before anything is stored, and the reports after them are stored', async () => {
    const now = Date.now();
    const good = { v: 1, ts: now, status: 'front', angle: 10, distance: 400, speed: 50, pressure: 2.4, flow: 90 };
    const program = { name: 'Pola\u0000', uploadedAt: now - 60_000, programData: { areaMap: [], sectors: [] } };
    // Each poison with the reason it is set aside for, in the order they are sent.
    const poison = [
      { reason: 'invalid', message: { ...good, ts: now - 3, distance: 1e308 } },
      { reason: 'invalid', message: { ...good, ts: 253402300800000 } },
      { reason: 'invalid', message: { ...good, ts: now - 2, status: 'alarm', alarm: 'pressure\u0000loss' } },
      { reason: 'too_large', message: { ...good, ts: now - 1, alarm: 'x'.repeat(1024 * 1024) } },
      { reason: 'invalid', message: { ...good, ts: now - 4, flow: 1e308 } },
      // A clock a month fast would hold the machine's shown state for a month; one a week and a day behind is no backfill.
      { reason: 'clock_ahead', message: { ...good, ts: now + 30 * DAY_MS } },
      { reason: 'too_old', message: { ...good, ts: now - 8 * DAY_MS } },
    ];
    for (const { message } of poison) {
      await controller.publishAsync(topics.telemetry(MACHINE), JSON.stringify(message), { qos: 1 });
    }
    await controller.publishAsync(topics.program(MACHINE), JSON.stringify({ v: 1, program }), { qos: 1 });
    await controller.publishAsync(topics.telemetry(MACHINE), JSON.stringify(good), { qos: 1 });

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
    expect(state!.programName).toBeNull();

    const expected = [
      ...poison.map(({ reason }) => ({ kind: 'telemetry', reason, topic: topics.telemetry(MACHINE) })),
      { kind: 'program', reason: 'invalid', topic: topics.program(MACHINE) },
    ].map((entry) => expect.objectContaining({ ...entry, machineId: MACHINE, deviceId: MACHINE }));
    const listed = async () => {
      const response = await admin.get('/api/quarantine/', { query: { pageSize: 20 } });
      return QuarantineListResponseSchema.parse(response.body).data.filter((entry) => entry.machineId === MACHINE);
    };
    await expect.poll(listed).toHaveLength(expected.length);
    const entries = await listed();
    expect(entries).toEqual(expect.arrayContaining(expected));

    const programEntry = entries.find((entry) => entry.kind === 'program');
    expect(programEntry!.detail).toContain('program.name: Control characters are not allowed');
    expect(programEntry!.payloadPreview).toContain('"name":"Pola\\u0000"');
    const nulAlarm = entries.find((entry) => entry.payloadPreview.includes('"alarm":"pressure\\u0000loss"'));
    expect(nulAlarm!.detail).toContain('alarm: Control characters are not allowed');
    const large = entries.find((entry) => entry.reason === 'too_large')!;
    expect(large).toMatchObject({ payloadTruncated: true, detail: expect.stringContaining('at most 524288') });
    expect(large.payloadBytes).toBeGreaterThan(1024 * 1024);
    expect(large.payloadPreview.length).toBeLessThanOrEqual(4096);
    expect(entries.find((entry) => entry.reason === 'clock_ahead')!.detail).toMatch(/is ahead of the server/);

    expect((await t.client().get('/api/health')).body).toMatchObject({ status: 'ok', problems: [] });
  });

  it("a station's report with an elevation no farm has, or not a number, is set aside; a real one is stored", async () => {
    // A controller of its own: the quarantine keeps at most 10 of one machine's messages a minute.
    const machine = `${MACHINE}-WS`;
    const station = `WS-${MACHINE}`;
    const secret = await registerController(t.app, machine);
    const stationsController = await mqtt.connectAsync(t.app.mqttUrl, {
      protocolVersion: 4,
      clientId: machine,
      username: machine,
      password: secret,
    });
    onTestFinished(() => stationsController.endAsync());
    const now = Date.now();
    const report = { v: 1, ts: now, lat: 52.4, lng: 17, temperature: 18, humidity: 60, rain: 0 };
    const poison = [
      { ...report, ts: now - 3, elevation: 9000 },
      { ...report, ts: now - 2, elevation: -1000 },
      { ...report, ts: now - 1, elevation: '1280' },
    ];
    for (const message of [...poison, { ...report, elevation: 1280 }]) {
      await stationsController.publishAsync(topics.weather(machine, station), JSON.stringify(message), { qos: 1 });
    }

    const stored = () => t.database.db.select().from(weatherReadings).where(eq(weatherReadings.stationId, station));
    await expect
      .poll(async () => {
        await t.app.weather.flush();
        return stored();
      })
      .toHaveLength(1);
    expect((await stored()).map((row) => [row.ts.getTime(), row.elevation])).toEqual([[now, 1280]]);
    const setAside = async () => {
      const response = await admin.get('/api/quarantine/', { query: { pageSize: 50 } });
      return QuarantineListResponseSchema.parse(response.body).data.filter(
        (entry) => entry.topic === topics.weather(machine, station),
      );
    };
    await expect.poll(setAside).toHaveLength(poison.length);
    for (const entry of await setAside()) {
      expect(entry).toMatchObject({ kind: 'weather', reason: 'invalid', detail: expect.stringContaining('elevation') });
    }
  });
});
