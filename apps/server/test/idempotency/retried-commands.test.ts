import { randomUUID } from 'node:crypto';
import { LogListResponseSchema, SprinklerListItemSchema, topics } from '@pivot/contracts';
import type { PivotMachine } from '@pivot/simulator';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { clearRetained, connectAsServer } from '../support/broker';
import { startRegisteredMachine } from '../support/devices';
import { grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

/** A retried, doubled or concurrent action with one Idempotency-Key is carried out once. */
describe('retrying a command with its Idempotency-Key', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let admin: ApiClient;
  let machine: PivotMachine;
  let sprinklerId: number;
  let wire: MqttClient;
  /** Every command published to the machine, as the broker carries it. */
  const sent: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
    const id = `IDEM-${Date.now().toString(36)}`;
    machine = await startRegisteredMachine(t.app, id);
    wire = await connectAsServer(t.app);
    await wire.subscribeAsync(topics.commands(id), { qos: 1 });
    wire.on('message', (_topic, payload) => sent.push(payload.toString()));
    sprinklerId = SprinklerListItemSchema.parse((await admin.post('/api/sprinkler/', { internalId: id })).body).id;
    const user = await t.buildUser();
    await grant(t, sprinklerId, user.id);
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
  });
  afterAll(async () => {
    await wire.endAsync();
    await machine.stop();
    await clearRetained(t.app, [topics.presence(machine.id), topics.program(machine.id)]);
    await t.close();
  });

  const motion = (motion: string, key?: string, client = farmer, headers: Record<string, string> = {}) =>
    client.post(
      `/api/sprinkler/${sprinklerId}/motion`,
      { motion },
      { headers: key ? { ...headers, 'idempotency-key': key } : headers },
    );
  const motionsSent = () => sent.filter((payload) => payload.includes('"motion"')).length;

  it('answers the repeats of a command whose answer went compressed, as a browser asks for it', async () => {
    const key = randomUUID();
    const before = motionsSent();
    const gzip = { 'accept-encoding': 'gzip' };
    // An area map makes the machine's answer large enough to be compressed.
    const ring = Array.from({ length: 60 }, (_, i) => [17 + Math.cos(i / 10) / 100, 52 + Math.sin(i / 10) / 100]);
    const areaMap = { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
    expect((await admin.patch(`/api/sprinkler/${sprinklerId}/`, { areaMap })).status).toBe(200);
    const answers = await Promise.all([1, 2, 3].map(() => motion('back', key, farmer, gzip)));
    const late = await motion('back', key, farmer, gzip);
    expect(answers.some((answer) => answer.headers['content-encoding'] === 'gzip')).toBe(true);
    for (const answer of [...answers, late]) expect(answer.status).toBe(200);
    expect([...answers, late].filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    expect(motionsSent() - before).toBe(1);
  });

  it('sends one command for a request sent three times at once and once more after, all answered alike', async () => {
    const key = randomUUID();
    const before = motionsSent();
    const answers = await Promise.all([motion('front', key), motion('front', key), motion('front', key)]);
    const late = await motion('front', key);
    for (const answer of [...answers, late]) expect(answer.status).toBe(200);
    expect(new Set([...answers, late].map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect([...answers, late].filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    expect(motionsSent() - before).toBe(1);
    const log = LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 5 } })).body).data;
    expect(
      log.filter((entry) => entry.eventType === 'sprinkler_motion_success' && entry.event === 'front'),
    ).toHaveLength(1);
  });

  it('repeats a failure as it was, without asking the machine again', async () => {
    const key = randomUUID();
    machine.misbehaveNext('missing');
    const before = motionsSent();
    const first = await motion('back', key);
    const again = await motion('back', key);
    expect(first.status).toBe(504);
    expect(again.status).toBe(504);
    expect(again.body).toEqual(first.body);
    expect(motionsSent() - before).toBe(1);
  });

  it('carries out requests without a key, or with another, each time', async () => {
    const before = motionsSent();
    await motion('stop');
    await motion('stop');
    await motion('stop', randomUUID());
    expect(motionsSent() - before).toBe(3);
  });

  it('refuses a key used for another request, and a key that is no key', async () => {
    const key = randomUUID();
    expect((await motion('stop', key)).status).toBe(200);
    const other = await motion('front', key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    expect((await motion('stop', 'short')).status).toBe(400);
  });

  it('keeps each user’s keys apart', async () => {
    const key = randomUUID();
    const before = motionsSent();
    expect((await motion('stop', key)).status).toBe(200);
    expect((await motion('stop', key, admin)).headers['idempotent-replayed']).toBeUndefined();
    expect(motionsSent() - before).toBe(2);
  });
});
