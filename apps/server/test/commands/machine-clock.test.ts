import { topics } from '@pivot/contracts';
import type { PivotMachine } from '@pivot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { clearRetained } from '../support/broker';
import { startRegisteredMachine } from '../support/devices';
import { buildSprinkler } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

/**
 * A machine whose clock is off does not act on a command (docs/protocol.md, "Acting only in
 * time"), and says why: the user is told to set its clock, not that it merely refused.
 */
describe('a command to a machine whose clock is wrong', () => {
  let t: TestApp;
  let admin: ApiClient;
  const machines: PivotMachine[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
  });
  afterAll(async () => {
    for (const machine of machines) await machine.stop();
    await clearRetained(
      t.app,
      machines.flatMap((machine) => [topics.presence(machine.id), topics.program(machine.id)]),
    );
    await t.close();
  });

  /** A machine added while its clock was right, whose clock then went off. */
  async function machineWithClock(clockOffsetMs: number) {
    const id = `CLOCK-${machines.length}-${Date.now().toString(36)}`;
    const machine = await startRegisteredMachine(t.app, id, { clockOffsetMs, motion: 'stop' });
    machines.push(machine);
    const sprinkler = await buildSprinkler(t, { internalId: id });
    await expect.poll(async () => (await t.app.telemetry.statesOf(t.database.db, [id])).get(id)?.online).toBe(true);
    return { machine, sprinklerId: sprinkler.id };
  }

  it('cannot be added, and the administrator is told to set its clock', async () => {
    const id = `CLOCK-ADD-${Date.now().toString(36)}`;
    machines.push(await startRegisteredMachine(t.app, id, { clockOffsetMs: -10_000 }));
    const response = await admin.post('/api/sprinkler/', { internalId: id });
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ code: 'machine_clock_wrong' });
  });

  it.each([
    ['behind', -10_000],
    ['ahead', 10_000],
  ])('is not carried out when the clock is 10 s %s, and the user is told to set it', async (_, offset) => {
    const { machine, sprinklerId } = await machineWithClock(offset);
    const response = await admin.post(
      `/api/sprinkler/${sprinklerId}/motion`,
      { motion: 'front' },
      {
        headers: { 'accept-language': 'en' },
      },
    );
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({
      code: 'machine_clock_wrong',
      message: expect.stringMatching(/clock|zegar/i),
    });
    expect(machine.state().status).toBe('stop');
  });

  it('is carried out when the clock is within the tolerance', async () => {
    const { machine, sprinklerId } = await machineWithClock(500);
    expect((await admin.post(`/api/sprinkler/${sprinklerId}/motion`, { motion: 'front' })).status).toBe(200);
    expect(machine.state().status).toBe('front');
  });
});
