import { topics } from '@pivot/contracts';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOpenIncidents } from '../../src/modules/incidents/incidents.repository';
import { updateLatestState } from '../../src/modules/telemetry/telemetry.repository';
import { addBareController } from '../support/devices';
import { stopOwnLooks } from '../support/incident-watch';
import { type TestApp, createTestApp } from '../support/test-app';

const MACHINE = `NARROW-${Date.now().toString(36)}`;
const OTHER = `${MACHINE}-B`;

const watering = (ts: number) => ({
  v: 1 as const,
  ts,
  status: 'front' as const,
  angle: 90,
  distance: 300,
  speed: 50,
  pressure: 2.4,
  flow: 120,
});

describe('the incident watch reads only what can change a verdict', () => {
  let t: TestApp;
  const controllers: mqtt.MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.adminClient();
    for (const machineId of [MACHINE, OTHER]) {
      const { controller } = await addBareController(t.app, admin, machineId);
      const online = { v: 1, online: true, ts: Date.now() };
      await controller.publishAsync(topics.presence(machineId), JSON.stringify(online), { qos: 1, retain: true });
      controllers.push(controller);
    }
    await stopOwnLooks(t);
  });
  afterAll(async () => {
    for (const controller of controllers) await controller.endAsync();
    await t.close();
  });

  async function report(machineId: string, ts: number) {
    const controller = controllers[machineId === MACHINE ? 0 : 1]!;
    await controller.publishAsync(topics.telemetry(machineId), JSON.stringify(watering(ts)), { qos: 1 });
    await expect
      .poll(async () => {
        await t.app.telemetry.flush();
        return (await t.app.telemetry.statesOf(t.database.db, [machineId])).get(machineId)?.reportedAt?.getTime();
      })
      .toBe(ts);
  }

  async function openKinds(machineId: string) {
    return [...((await findOpenIncidents(t.database.db)).get(machineId)?.keys() ?? [])];
  }

  let reportedAt: number;

  it('reads only the machines whose state changed', async () => {
    reportedAt = Date.now();
    await report(MACHINE, reportedAt);
    await report(OTHER, reportedAt);
    await t.app.incidents.lookOnce(reportedAt);
    expect(t.app.incidents.lastLook()?.narrow).toBe(2);

    // Neither changed since: neither is read.
    await t.app.incidents.lookOnce(reportedAt + 1000);
    expect(t.app.incidents.lastLook()?.narrow).toBe(0);

    const next = Date.now();
    await report(MACHINE, next);
    await t.app.incidents.lookOnce(next);
    expect(t.app.incidents.lastLook()?.narrow).toBe(1);
  });

  it('still hears a machine fall silent, with only time passing', async () => {
    await t.app.incidents.lookOnce(reportedAt + 10_000);
    expect(t.app.incidents.lastLook()?.narrow).toBe(0);
    expect(await openKinds(OTHER)).toEqual([]);

    // Silent for the 30 s of the offline rule (a moving machine's three intervals are less).
    await t.app.incidents.lookOnce(reportedAt + 30_000);
    expect(await openKinds(OTHER)).toEqual(['offline']);
  });

  it('judges a change whose transaction began before a look and committed after it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const ts = Date.now();
    const slow = t.database.db.transaction(async (tx) => {
      const alarm = { ...watering(ts), status: 'alarm' as const, alarm: 'pressure_loss', pressure: 0.1, flow: 0 };
      await updateLatestState(tx, [{ machineId: MACHINE, message: alarm }]);
      wrote();
      await released;
    });
    await written;
    const during = t.app.incidents.lookOnce(ts);
    // PostgreSQL looks while the write is uncommitted and does not see it; PGlite runs one
    // transaction at a time, so there the look waits for the commit.
    if (t.database.kind === 'postgres') {
      await during;
      expect(await openKinds(MACHINE)).not.toContain('alarm');
    }
    release();
    await slow;
    await during;
    await t.app.incidents.lookOnce(ts + 1000);
    expect(await openKinds(MACHINE)).toContain('alarm');
  });
});
