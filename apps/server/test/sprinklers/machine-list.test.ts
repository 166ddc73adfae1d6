import {
  type MachineListEvent,
  MachineListEventSchema,
  SprinklerListResponseSchema,
  type TelemetryMessage,
} from '@pivot/contracts';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACHINES_RECHECK_MS } from '../../src/modules/sprinklers/machine-list-streams';
import { revokeAccess } from '../../src/modules/access/access.repository';
import { machineState } from '../../src/modules/telemetry/telemetry.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

/** A report of a machine as every instance hears it from the broker. */
function announceReport(t: TestApp, internalId: string, angle: number): void {
  t.app.telemetry.announce({
    kind: 'telemetry',
    machineId: internalId,
    message: { v: 1, ts: Date.now(), status: 'front', angle, distance: 400, speed: 50, pressure: 2.5, flow: 80 },
  });
}

/** The user's machine-list stream, read event by event. */
async function openListStream(address: string, client: ApiClient) {
  const controller = new AbortController();
  const response = await fetch(`${address}/api/sprinkler/events`, {
    headers: { authorization: `Bearer ${client.access}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const pending: MachineListEvent[] = [];
  return {
    /** The next event, failing the test when none comes in time. */
    async next(timeoutMs = 2000): Promise<MachineListEvent> {
      const deadline = Date.now() + timeoutMs;
      while (pending.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event in time');
        const chunk = await Promise.race([
          reader.read(),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
        ]);
        if (chunk === null) continue;
        if (chunk.done) throw new Error('the stream ended');
        text += decoder.decode(chunk.value, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) !== -1) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = /^data: (.+)$/m.exec(block)?.[1];
          const name = /^event: (.+)$/m.exec(block)?.[1];
          if (data === undefined) continue;
          const event = MachineListEventSchema.parse(JSON.parse(data));
          expect(event.type).toBe(name);
          pending.push(event);
        }
      }
      return pending.shift()!;
    },
    close: () => controller.abort(),
  };
}

describe('the machine list', () => {
  let t: TestApp;
  let admin: ApiClient;
  let address: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('answers 304 to a browser that holds the list, and a new ETag once it changed', async () => {
    const machine = await buildSprinkler(t);
    const farmer = await t.signedInUser();
    await grant(t, machine.id, farmer.user.id);
    const first = await farmer.client.get('/api/sprinkler/');
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(SprinklerListResponseSchema.parse(first.body)).toHaveLength(1);

    const again = await farmer.client.get('/api/sprinkler/', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();

    await admin.patch(`/api/sprinkler/${machine.id}/`, { name: 'Renamed' });
    const changed = await farmer.client.get('/api/sprinkler/', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(SprinklerListResponseSchema.parse(changed.body)[0]!.name).toBe('Renamed');
  });

  it('gives administrators asking at once the same list, and the first after a change a list of its own', async () => {
    const machine = await buildSprinkler(t);
    const other = await t.adminClient();
    const [mine, theirs] = await Promise.all([admin.get('/api/sprinkler/'), other.get('/api/sprinkler/')]);
    expect(mine.status).toBe(200);
    expect(theirs.body).toEqual(mine.body);
    await admin.patch(`/api/sprinkler/${machine.id}/`, { name: 'Renamed at once' });
    const [after] = await Promise.all([other.get('/api/sprinkler/'), admin.get('/api/sprinkler/')]);
    const names = SprinklerListResponseSchema.parse(after!.body).map((item) => item.name);
    expect(names).toContain('Renamed at once');
  });

  it('writes the list byte for byte as the zod serializer does, for machines silent, reporting and in alarm', async () => {
    const silent = await buildSprinkler(t);
    const reporting = await buildSprinkler(t);
    const alarmed = await buildSprinkler(t);
    const report = (machineId: string, message: TelemetryMessage) =>
      t.app.telemetry.handlers.telemetry({ machineId, deviceId: machineId }, message);
    report(reporting.internalId, {
      v: 1,
      ts: Date.now(),
      status: 'front',
      angle: 12.5,
      distance: 400,
      speed: 50,
      pressure: 2.5,
      flow: 80,
    });
    report(alarmed.internalId, {
      v: 1,
      ts: Date.now() - 90_000,
      status: 'alarm',
      angle: 359.99,
      distance: 0,
      speed: 0,
      pressure: 0.1,
      flow: 0,
      alarm: 'low pressure "zone 2"',
    });
    await t.app.telemetry.flush();
    const response = await t.app.inject({
      url: '/api/sprinkler/',
      headers: { authorization: `Bearer ${admin.access}` },
    });
    const list = SprinklerListResponseSchema.parse(response.json());
    expect(list.map((item) => item.id)).toEqual(expect.arrayContaining([silent.id, reporting.id, alarmed.id]));
    const zodSerializer = serializerCompiler({ schema: SprinklerListResponseSchema, method: 'GET', url: '/' });
    expect(response.payload).toBe((zodSerializer as (data: unknown) => string)(list));
  });

  it('writes each machine as its presenter does, online judged as isOnline judges it', async () => {
    const now = Date.now();
    const ago = (seconds: number) => new Date(now - seconds * 1000);
    const program = { type: 'FeatureCollection' as const, features: [] };
    const states: (Partial<typeof machineState.$inferInsert> | null)[] = [
      null,
      { online: true },
      { online: true, reportedAt: ago(10), status: 'front', angle: 12.5, distance: 400, speed: 50, flow: 80 },
      { online: true, reportedAt: ago(20), status: 'back', angle: 0.1, distance: 399.99, speed: 3.25, flow: 0 },
      { online: true, reportedAt: ago(20), status: 'stop', pressure: 2.345678901234, flow: 50 },
      {
        online: true,
        reportedAt: ago(170),
        status: 'stop',
        pressure: 0,
        flow: 0,
        programName: 'Maize',
        programData: program,
      },
      {
        online: true,
        reportedAt: ago(190),
        status: 'alarm',
        flow: 0,
        programName: 'Maize',
        programUploadedAt: ago(86_400),
      },
      { online: false, reportedAt: ago(1), status: 'front', flow: 80, programName: '', programData: program },
      {
        online: true,
        reportedAt: new Date(now - 5_000.7),
        status: 'front',
        programName: 'Wheat "north"',
        programData: program,
        programUploadedAt: ago(3_600),
      },
    ];
    const machines: Awaited<ReturnType<typeof buildSprinkler>>[] = [];
    for (const [index, state] of states.entries()) {
      const machine = await buildSprinkler(t, {
        name: `Ω pivot "${index}" \\ ${index}`,
        lat: (-33.123457 + index).toFixed(6),
        lng: (151.000001 - index).toFixed(6),
        lowPressureBar: index / 3,
      });
      if (state) await t.database.db.insert(machineState).values({ machineId: machine.internalId, ...state });
      machines.push(machine);
    }
    const response = await t.app.inject({
      url: '/api/sprinkler/',
      headers: { authorization: `Bearer ${admin.access}` },
    });
    const list = SprinklerListResponseSchema.parse(response.json());
    const zodSerializer = serializerCompiler({ schema: SprinklerListResponseSchema, method: 'GET', url: '/' });
    expect(response.payload).toBe((zodSerializer as (data: unknown) => string)(list));
    const listed = list.filter((item) => machines.some((machine) => machine.id === item.id));
    expect(listed).toEqual(await t.app.sprinklers.listItems(t.database.db, machines));
    expect(listed.map((item) => item.online)).toEqual([false, true, true, false, false, true, false, false, true]);
  });

  it("streams the live values of the user's own machines, never another's", async () => {
    const mine = await buildSprinkler(t);
    const theirs = await buildSprinkler(t);
    const farmer = await t.signedInUser();
    await grant(t, mine.id, farmer.user.id);
    const stream = await openListStream(address, farmer.client);
    try {
      announceReport(t, theirs.internalId, 10);
      announceReport(t, mine.internalId, 20);
      const event = await stream.next();
      expect(event).toMatchObject({ type: 'telemetry', sprinklerId: mine.id, angle: 20, status: 'front' });
      t.app.telemetry.announce({ kind: 'presence', machineId: theirs.internalId, message: { v: 1, online: false } });
      t.app.telemetry.announce({ kind: 'presence', machineId: mine.internalId, message: { v: 1, online: false } });
      expect(await stream.next()).toEqual({ type: 'presence', sprinklerId: mine.id, online: false });
    } finally {
      stream.close();
    }
  });

  it('follows grants: a machine granted streams at once, one revoked stops, through this instance or another', async () => {
    const first = await buildSprinkler(t);
    const second = await buildSprinkler(t);
    const farmer = await t.signedInUser();
    await grant(t, first.id, farmer.user.id);
    const stream = await openListStream(address, farmer.client);
    try {
      const change = (action: 'grant' | 'revoke', id: number) =>
        admin.patch(`/api/sprinkler/${id}/permissions/`, { user: farmer.user.id, action });

      await change('grant', second.id);
      expect(await stream.next()).toEqual({ type: 'machines' });
      announceReport(t, second.internalId, 30);
      expect(await stream.next()).toMatchObject({ type: 'telemetry', sprinklerId: second.id });

      await change('revoke', first.id);
      expect(await stream.next()).toEqual({ type: 'machines' });
      announceReport(t, first.internalId, 40);
      announceReport(t, second.internalId, 50);
      expect(await stream.next()).toMatchObject({ type: 'telemetry', sprinklerId: second.id, angle: 50 });

      // Revoked straight in the database, as another instance would: this one hears of it at its next look.
      await revokeAccess(t.database.db, second.id, farmer.user.id);
      expect(await stream.next(MACHINES_RECHECK_MS + 2000)).toEqual({ type: 'machines' });
      announceReport(t, second.internalId, 60);
      await grant(t, first.id, farmer.user.id);
      expect(await stream.next(MACHINES_RECHECK_MS + 2000)).toEqual({ type: 'machines' });
      announceReport(t, first.internalId, 70);
      expect(await stream.next()).toMatchObject({ type: 'telemetry', sprinklerId: first.id, angle: 70 });
    } finally {
      stream.close();
    }
  });

  it('refuses the stream without a session', async () => {
    const response = await fetch(`${address}/api/sprinkler/events`);
    expect(response.status).toBe(401);
    await response.body?.cancel();
  });
});
