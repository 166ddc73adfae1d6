import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IncidentWatch } from '../../src/modules/incidents/incident-watch';
import { findOpenIncidents } from '../../src/modules/incidents/incidents.repository';
import { updateLatestState } from '../../src/modules/telemetry/telemetry.repository';
import { anotherIncidentWatch, stopOwnLooks } from '../support/incident-watch';
import { type TestApp, createTestApp } from '../support/test-app';

const FLEET = 300;
const PREFIX = `SWEEP-${Date.now().toString(36)}`;
const machineId = (index: number) => `${PREFIX}-${index}`;

const alarm = (ts: number) => ({
  v: 1 as const,
  ts,
  status: 'alarm' as const,
  alarm: 'pressure_loss',
  angle: 90,
  distance: 300,
  speed: 0,
  pressure: 0.1,
  flow: 0,
});

/**
 * Issue 38: at 10,000 machines the look that read every machine (an instance's first, the first
 * after another instance looked, and one a minute) took up to 56 s, and an alarm's alert waited
 * for it. No look reads the whole fleet now: an instance's first reads the last second's changes,
 * and the safety net that reads every machine is swept a slice a look.
 */
describe('no incident look reads the whole fleet', () => {
  let t: TestApp;
  const start = Date.now();

  async function openKinds(machine: string) {
    return [...((await findOpenIncidents(t.database.db)).get(machine)?.keys() ?? [])];
  }

  beforeAll(async () => {
    t = await createTestApp();
    await stopOwnLooks(t);
    // A watch looks only once it hears the broker; a real one may take a while to answer on a busy machine.
    await vi.waitFor(() => expect(t.app.gateway.listeningSince).not.toBeNull(), { timeout: 30_000 });
    // A fleet long at work, resting and heard a minute ago, whose states were last written ten
    // minutes ago: nothing of it can change a verdict within the test's minute.
    await t.database.db.execute(sql`
      insert into sprinklers (internal_id, name, lat, lng, arm_length)
      select ${PREFIX} || '-' || n, 'Pivot ' || n, 52.4, 16.9, 300 from generate_series(0, ${FLEET - 1}) as n`);
    await t.database.db.execute(sql`
      insert into machine_state (machine_id, online, reported_at, status, pressure, flow, changed_at)
      select ${PREFIX} || '-' || n, true, now() - interval '1 minute', 'stop', 0, 0, now() - interval '10 minutes'
      from generate_series(0, ${FLEET - 1}) as n`);
  });
  afterAll(() => t.close());

  /** This server's watch as it starts again: an instance that has not looked yet. */
  let restarted: IncidentWatch;

  it("reads at an instance's first look only what may have changed", async () => {
    restarted = anotherIncidentWatch(t);
    await restarted.lookOnce(start);
    expect(restarted.lastLook()).toEqual({ narrow: 0, swept: 0 });
  });

  it('raises an alarm at the next look, reading only that machine and a slice of the fleet', async () => {
    // The app's own watch looks in between, as another instance would.
    await t.app.incidents.lookOnce(start + 500);
    await updateLatestState(t.database.db, [{ machineId: machineId(7), message: alarm(start + 500) }]);
    await restarted.lookOnce(start + 1000);
    expect(restarted.lastLook()).toEqual({ narrow: 1, swept: FLEET / 60 });
    expect(await openKinds(machineId(7))).toEqual(['alarm']);
  });

  it('sweeps every machine within a minute, a slice a look, and so judges a change no look saw', async () => {
    // A write the narrow looks cannot see: dated before the last look (a clock stepped back).
    await updateLatestState(t.database.db, [{ machineId: machineId(42), message: alarm(start + 1500) }]);
    await t.database.db.execute(
      sql`update machine_state set changed_at = now() - interval '10 minutes' where machine_id = ${machineId(42)}`,
    );
    const sweptPerLook: number[] = [];
    let alarmAfterLooks: number | undefined;
    for (let look = 1; look <= 60; look += 1) {
      await restarted.lookOnce(start + 1000 + look * 1000);
      const { narrow, swept } = restarted.lastLook()!;
      sweptPerLook.push(swept);
      // Machine 7's open alarm is read at every look (its recovery hold runs with time alone).
      expect(narrow).toBeLessThanOrEqual(2);
      if (alarmAfterLooks === undefined && (await openKinds(machineId(42))).includes('alarm')) alarmAfterLooks = look;
    }
    expect(sweptPerLook.reduce((sum, swept) => sum + swept, 0)).toBe(FLEET);
    expect(Math.max(...sweptPerLook)).toBe(FLEET / 60);
    expect(alarmAfterLooks).toBeDefined();
  });
});
