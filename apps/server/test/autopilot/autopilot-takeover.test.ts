import { AutopilotSettingsSchema, LogListResponseSchema, SprinklerListItemSchema, topics } from '@pivot/contracts';
import type { PivotMachine } from '@pivot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { clearRetained } from '../support/broker';
import { startRegisteredMachine } from '../support/devices';
import { buildProgram, grant } from '../support/fixtures';
import { useTestApp } from '../support/test-app';

/** The farmer always wins: a person's command or program takes a machine in auto over. */
describe('a person’s command to a machine whose autopilot is in auto', () => {
  const t = useTestApp({}, { signInAdmin: true });
  let farmer: ApiClient;
  let farmerId: number;
  let machine: PivotMachine;
  let sprinklerId: number;
  let url: string;

  beforeAll(async () => {
    const owner = await t.signedInUser();
    farmer = owner.client;
    farmerId = owner.user.id;
    const id = `AP-${Date.now().toString(36)}`;
    machine = await startRegisteredMachine(t.app, id);
    sprinklerId = SprinklerListItemSchema.parse((await t.admin.post('/api/sprinkler/', { internalId: id })).body).id;
    url = `/api/sprinkler/${sprinklerId}/autopilot/`;
    await grant(t, sprinklerId, owner.user.id, 'control');
  });
  afterAll(async () => {
    await machine.stop();
    await clearRetained(t.app, [topics.presence(machine.id), topics.program(machine.id)]);
  });

  const modeNow = async () => AutopilotSettingsSchema.parse((await farmer.get(url)).body).mode;
  const autopilotEntries = async () =>
    LogListResponseSchema.parse((await farmer.get('/api/logs/', { query: { pageSize: 100 } })).body)
      .data.filter((entry) => entry.eventType === 'sprinkler_autopilot_updated')
      .map((entry) => [entry.event, entry.details]);
  const move = async (motion: 'front' | 'stop') => {
    const response = await farmer.post(`/api/sprinkler/${sprinklerId}/motion`, { motion });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };

  it('turns it to suggest, logged as taken over; a machine in suggest stays in suggest', async () => {
    expect((await farmer.put(url, { mode: 'auto', rules: {} })).status).toBe(200);
    await move('front');
    expect(await modeNow()).toBe('suggest');
    // Newest first.
    expect(await autopilotEntries()).toEqual([
      ['suggest', 'taken_over'],
      ['auto', 'user'],
    ]);
    await move('stop');
    expect(await modeNow()).toBe('suggest');
    expect(await autopilotEntries()).toHaveLength(2);
  });

  it('a program sent by a person takes it over too', async () => {
    expect((await farmer.put(url, { mode: 'auto', rules: {} })).status).toBe(200);
    const created = await farmer.post(`/api/sprinkler/${sprinklerId}/program/`, buildProgram('Takeover'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const program = (created.body as { programs: { id: number; name: string }[] }).programs.find(
      (item) => item.name === 'Takeover',
    )!;
    const sent = await farmer.post(`/api/sprinkler/${sprinklerId}/program/${program.id}/send/`, undefined);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(await modeNow()).toBe('suggest');
    expect((await autopilotEntries())[0]).toEqual(['suggest', 'taken_over']);
  });

  it('a send of the server itself (no person) takes nothing over', async () => {
    expect((await farmer.put(url, { mode: 'auto', rules: {} })).status).toBe(200);
    const sprinkler = (await t.app.sprinklers.find(t.database.db, sprinklerId))!;
    await t.app.commands.run(
      { type: 'motion', motion: 'stop' },
      {
        actorUserId: null,
        machine: { id: sprinkler.id, name: sprinkler.name, internalId: sprinkler.internalId },
        event: 'stop',
        ip: '',
        failure: 'sprinkler_motion_failure',
      },
    );
    expect(await modeNow()).toBe('auto');
  });

  it("the autopilot's own pass, sent for the person who asked for it with one tap, takes nothing over", async () => {
    expect((await farmer.put(url, { mode: 'auto', rules: {} })).status).toBe(200);
    const sprinkler = (await t.app.sprinklers.find(t.database.db, sprinklerId))!;
    await t.app.commands.run(
      { type: 'motion', motion: 'stop' },
      {
        actorUserId: farmerId,
        machine: { id: sprinkler.id, name: sprinkler.name, internalId: sprinkler.internalId },
        event: 'stop',
        ip: '127.0.0.1',
        failure: 'sprinkler_motion_failure',
        autopilot: true,
      },
    );
    expect(await modeNow()).toBe('auto');
  });
});
