import { randomUUID } from 'node:crypto';
import { LogListResponseSchema, SprinklerListItemSchema, topics } from '@pivot/contracts';
import type { PivotMachine } from '@pivot/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineCommands } from '../../src/modules/commands/commands.table';
import type { ApiClient } from '../support/api-client';
import { clearRetained } from '../support/broker';
import { startRegisteredMachine } from '../support/devices';
import { type TestApp, createTestApp } from '../support/test-app';

/** Every command is stored before it is published, and how it ended is always recorded. */
describe('the record of every command', () => {
  let t: TestApp;
  let admin: ApiClient;
  let machine: PivotMachine;
  let sprinklerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    const id = `REC-${Date.now().toString(36)}`;
    machine = await startRegisteredMachine(t.app, id);
    sprinklerId = SprinklerListItemSchema.parse((await admin.post('/api/sprinkler/', { internalId: id })).body).id;
  });
  afterAll(async () => {
    await machine.stop();
    await clearRetained(t.app, [topics.presence(machine.id), topics.program(machine.id)]);
    await t.close();
  });

  const records = () =>
    t.database.db
      .select()
      .from(machineCommands)
      .where(eq(machineCommands.machineId, machine.id))
      .orderBy(machineCommands.sentAt);

  const latestLogEntry = async () =>
    LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 1 } })).body).data[0];

  it('takes the truth from a confirmation that comes after the timeout', async () => {
    machine.misbehaveNext('late');
    expect((await admin.post(`/api/sprinkler/${sprinklerId}/motion`, { motion: 'back' })).status).toBe(504);
    await expect.poll(async () => (await records()).at(-1)?.outcome, { timeout: 10_000 }).toBe('confirmed');
    expect((await records()).at(-1)).toMatchObject({
      event: 'back',
      detail: 'confirmed by the machine after the server stopped waiting',
    });
    expect(await latestLogEntry()).toMatchObject({
      eventType: 'sprinkler_motion_success',
      event: 'back',
      details: 'confirmed by the machine after the server stopped waiting',
    });
  });

  it('records how each command ended: confirmed, expired, not sent', async () => {
    expect((await admin.post(`/api/sprinkler/${sprinklerId}/motion`, { motion: 'front' })).status).toBe(200);
    machine.misbehaveNext('missing');
    expect((await admin.post(`/api/sprinkler/${sprinklerId}/motion`, { motion: 'back' })).status).toBe(504);
    await machine.crash();
    await expect
      .poll(async () => (await admin.post(`/api/sprinkler/${sprinklerId}/motion`, { motion: 'stop' })).status)
      .toBe(409);
    const outcomes = (await records()).map((record) => [record.type, record.event, record.outcome]);
    expect(outcomes.slice(0, 4)).toEqual([
      ['identify', 'admin@pivot.test', 'confirmed'],
      ['motion', 'back', 'confirmed'],
      ['motion', 'front', 'confirmed'],
      ['motion', 'back', 'expired'],
    ]);
    expect(outcomes.at(-1)).toEqual(['motion', 'stop', 'not_sent']);
    for (const record of await records()) expect(record.settledAt).not.toBeNull();
  });

  it('settles as unknown, and logs, a command its server stopped waiting for; one still awaited is left alone', async () => {
    const abandoned = randomUUID();
    const awaited = randomUUID();
    const audit = {
      machineId: machine.id,
      type: 'motion' as const,
      actorUserId: null,
      sprinklerId,
      sprinklerName: 'Pole',
      event: 'front',
      ip: '10.0.0.9',
      failureEvent: 'sprinkler_motion_failure' as const,
    };
    await t.database.db.insert(machineCommands).values([
      { ...audit, id: abandoned, sentAt: new Date(Date.now() - 10 * 60_000) },
      { ...audit, id: awaited, sentAt: new Date() },
    ]);
    expect(await t.app.commands.settleAbandoned()).toBe(1);
    const byId = new Map((await records()).map((record) => [record.id, record]));
    expect(byId.get(abandoned)).toMatchObject({ outcome: 'unknown' });
    expect(byId.get(awaited)).toMatchObject({ outcome: 'pending', settledAt: null });
    expect(await latestLogEntry()).toMatchObject({
      eventType: 'sprinkler_motion_failure',
      event: 'front',
      sprinklerInternalId: machine.id,
      details: 'outcome unknown: the server stopped while it waited for the machine',
    });
    expect(await t.app.commands.settleAbandoned()).toBe(0);
  });

  it("confirms a motion command left pending by a stopped server when the machine's later report shows it done", async () => {
    const [state] = [...(await t.app.telemetry.statesOf(t.database.db, [machine.id])).values()];
    const id = randomUUID();
    await t.database.db.insert(machineCommands).values({
      id,
      machineId: machine.id,
      type: 'motion',
      sentAt: new Date(state!.reportedAt!.getTime() - 10 * 60_000),
      actorUserId: null,
      sprinklerId,
      sprinklerName: 'Pole',
      event: state!.status!,
      ip: '10.0.0.9',
      failureEvent: 'sprinkler_motion_failure',
    });
    expect(await t.app.commands.settleAbandoned(state!.reportedAt!.getTime())).toBe(1);
    expect((await records()).find((record) => record.id === id)).toMatchObject({ outcome: 'confirmed' });
    expect(await latestLogEntry()).toMatchObject({
      eventType: 'sprinkler_motion_success',
      event: state!.status,
      details: "carried out: the machine's report after the server stopped waiting shows it",
    });
  });
});
