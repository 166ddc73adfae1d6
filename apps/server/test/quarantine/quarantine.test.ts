import { QuarantineListResponseSchema, type QuarantinedMessage, topics } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quarantinedMessages } from '../../src/modules/quarantine/quarantine.table';
import {
  GROWING_PER_MINUTE,
  KEPT_PER_MACHINE_PER_MINUTE,
  QuarantineService,
  type SetAsideMessage,
} from '../../src/modules/quarantine/quarantine.service';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import type { ApiClient } from '../support/api-client';
import { registerController } from '../support/devices';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

let count = 0;
const machineId = () => `QUARANTINE-${Date.now().toString(36)}-${(count += 1)}`;

describe('the quarantine of machine messages', () => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
  });
  afterAll(() => t.close());

  /** A registered controller connected to the app's broker. */
  async function connect(machine: string): Promise<mqtt.MqttClient> {
    const password = await registerController(t.app, machine);
    return mqtt.connectAsync(t.app.mqttUrl, { protocolVersion: 4, clientId: machine, username: machine, password });
  }

  async function listed(machine: string, query: Record<string, number> = { pageSize: 100 }) {
    const response = await admin.get('/api/quarantine/', { query });
    expect(response.status).toBe(200);
    return QuarantineListResponseSchema.parse(response.body).data.filter((entry) => entry.machineId === machine);
  }

  const health = async () => (await t.client().get('/api/health')).body as { status: string; problems: string[] };

  it('is shown to administrators only', async () => {
    expect((await t.client().get('/api/quarantine/')).status).toBe(401);
    const user = await t.buildUser();
    const farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    expect((await farmer.get('/api/quarantine/')).status).toBe(403);
    expect((await admin.get('/api/quarantine/', { query: { pageSize: 101 } })).status).toBe(400);
  });

  it('shows a payload of raw bytes as safe text: NUL and other control characters as symbols, broken UTF-8 as U+FFFD', async () => {
    const machine = machineId();
    const controller = await connect(machine);
    const payload = Buffer.concat([
      Buffer.from('{"v":1,\u0000"ts":'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('\u001b[31m\n'),
    ]);
    await controller.publishAsync(topics.telemetry(machine), payload, { qos: 1 });
    await controller.endAsync();

    await expect.poll(() => listed(machine)).toHaveLength(1);
    const [entry] = await listed(machine);
    expect(entry).toMatchObject({
      kind: 'telemetry',
      reason: 'not_json',
      payloadPreview: '{"v":1,\u2400"ts":\uFFFD\uFFFD\u241B[31m\n',
      payloadBytes: payload.length,
      payloadTruncated: false,
    } satisfies Partial<QuarantinedMessage>);
  });

  it('keeps a few of a flooding machine’s messages a minute and counts the rest, while the server answers as usual', async () => {
    const machine = machineId();
    const controller = await connect(machine);
    const flood = GROWING_PER_MINUTE + 50;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: flood }, (_, index) =>
        controller.publishAsync(topics.telemetry(machine), `garbage ${index}`, { qos: 0 }),
      ),
    );
    const answered = Date.now();
    const during = await t.client().get('/api/health');
    expect(Date.now() - answered).toBeLessThan(1000);
    expect(during.status).toBe(200);
    // A good report after the flood: once it is stored, every message before it was seen.
    const good = { v: 1, ts: started, status: 'front', angle: 1, distance: 300, speed: 50, pressure: 2, flow: 80 };
    await controller.publishAsync(topics.telemetry(machine), JSON.stringify(good), { qos: 1 });
    await expect
      .poll(async () => {
        await t.app.telemetry.flush();
        return t.database.db.select().from(telemetry).where(eq(telemetry.machineId, machine));
      })
      .toHaveLength(1);
    await controller.endAsync();

    expect(await health()).toMatchObject({
      status: 'degraded',
      problems: [expect.stringMatching(/^quarantine_growing: \d+ machine messages were set aside in the last minute/)],
    });
    await expect.poll(() => listed(machine)).toHaveLength(KEPT_PER_MACHINE_PER_MINUTE);
    const kept = await listed(machine);
    expect(kept.every((entry) => entry.reason === 'not_json')).toBe(true);
    // Newest first.
    const times = kept.map((entry) => entry.receivedAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    await t.app.quarantine.closeMinutes({ all: true });
    const [summary, ...rest] = await listed(machine);
    expect(rest).toHaveLength(KEPT_PER_MACHINE_PER_MINUTE);
    const notKept = flood - KEPT_PER_MACHINE_PER_MINUTE;
    expect(summary).toMatchObject({
      reason: 'rate_limited',
      kind: 'telemetry',
      payloadPreview: `garbage ${flood - 1}`,
    });
    expect(summary!.detail).toMatch(new RegExp(`^${notKept} more messages within a minute from .* were not kept`));
    expect(summary!.detail).toContain(`not_json ${notKept}`);
    expect(summary!.explanation).toEqual({
      code: 'rate_limited',
      notKept,
      since: expect.any(Number),
      keptPerMinute: KEPT_PER_MACHINE_PER_MINUTE,
      notKeptByReason: [{ reason: 'not_json', count: notKept }],
      lastReason: 'not_json',
      last: { code: 'not_json' },
    });

    const secondPage = await admin.get('/api/quarantine/', { query: { page: 2, pageSize: 5 } });
    expect(QuarantineListResponseSchema.parse(secondPage.body)).toMatchObject({
      count: expect.any(Number),
      data: { length: 5 },
    });
  });

  it('gives each reason as a code and its parameters beside the English detail, for the reader’s language', async () => {
    const machine = machineId();
    const controller = await connect(machine);
    const now = Date.now();
    const report = {
      v: 1,
      ts: now,
      status: 'sideways',
      angle: 400,
      distance: 300,
      speed: 'fast',
      pressure: 2,
      flow: 80,
    };
    await controller.publishAsync(topics.telemetry(machine), JSON.stringify(report), { qos: 1 });
    const ahead = now + 24 * 60 * 60_000;
    await controller.publishAsync(
      topics.telemetry(machine),
      JSON.stringify({ ...report, ts: ahead, status: 'front', angle: 1, speed: 5 }),
      { qos: 1 },
    );
    await controller.endAsync();

    await expect.poll(() => listed(machine)).toHaveLength(2);
    // Both may be set aside within one millisecond: picked by their reason, not by the list's order.
    const both = await listed(machine);
    const clockAhead = both.find((message) => message.reason === 'clock_ahead');
    const invalid = both.find((message) => message.reason === 'invalid');
    expect(clockAhead).toMatchObject({ reason: 'clock_ahead', explanation: { code: 'clock_ahead', ts: ahead } });
    expect(invalid!.reason).toBe('invalid');
    expect(invalid!.detail).toMatch(/^status: /);
    expect(invalid!.explanation).toEqual({
      code: 'invalid',
      issues: [
        { path: 'status', problem: 'value' },
        { path: 'angle', problem: 'too_big', limit: 360 },
        { path: 'speed', problem: 'type' },
      ],
    });
  });

  it('deletes what is older than the retention (7 days by default)', async () => {
    const machine = machineId();
    const day = 24 * 60 * 60_000;
    const row = (ageDays: number) => ({
      receivedAt: new Date(Date.now() - ageDays * day),
      machineId: machine,
      deviceId: machine,
      topic: topics.telemetry(machine),
      kind: 'telemetry' as const,
      reason: 'not_json' as const,
      detail: `${ageDays} days old`,
      payloadHead: Buffer.from('x'),
      payloadBytes: 1,
    });
    await t.database.db.insert(quarantinedMessages).values([row(8), row(6)]);

    await t.app.quarantine.prune();

    // A row kept before reasons had codes shows its English detail as it is.
    expect((await listed(machine)).map(({ detail, explanation }) => ({ detail, explanation }))).toEqual([
      { detail: '6 days old', explanation: null },
    ]);
  });
});

describe('the quarantine’s minute', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('tells health, on every instance, when many messages were set aside in the whole system within the last minute, and ok again a minute later', async () => {
    let now = Date.now();
    const quarantine = new QuarantineService({ db: t.database.db, retentionDays: 7, clock: () => now });
    // A second instance over the same database, to which no message comes.
    const otherInstance = new QuarantineService({ db: t.database.db, retentionDays: 7, clock: () => now });
    const machines = Array.from({ length: 5 }, machineId);
    const message = (machine: string): SetAsideMessage => ({
      machineId: machine,
      deviceId: machine,
      kind: 'telemetry',
      topic: topics.telemetry(machine),
      payload: Buffer.from('{}'),
      reason: 'invalid',
      detail: 'v: Invalid input',
      explanation: { code: 'invalid', issues: [{ path: 'v', problem: 'value' }] },
    });
    const flood = 2 * GROWING_PER_MINUTE;
    for (let index = 0; index < flood; index += 1) {
      await quarantine.setAside(message(machines[index % machines.length]!));
      now += 100;
    }
    const growing = (count: number) => [
      {
        code: 'quarantine_growing',
        message: `${count} machine messages were set aside in the last minute, by all instances together (more than ${GROWING_PER_MINUTE}): see the admin panel's rejected messages`,
      },
    ];
    expect(await quarantine.problems()).toEqual(growing(flood));
    // The other instance sees the kept rows at once, and the rest once the flood's minutes are summarised.
    expect(machines.length * KEPT_PER_MACHINE_PER_MINUTE).toBeLessThanOrEqual(GROWING_PER_MINUTE);
    expect(await otherInstance.problems()).toEqual([]);
    await quarantine.closeMinutes({ all: true });
    expect(await otherInstance.problems()).toEqual(growing(flood));
    expect(await quarantine.problems()).toEqual(growing(flood));

    now += 60_001;
    expect(await quarantine.problems()).toEqual([]);
    expect(await otherInstance.problems()).toEqual([]);

    // The next message of a machine starts a new minute: its last one was summarised.
    await quarantine.setAside(message(machines[0]!));
    const rows = await t.database.db
      .select()
      .from(quarantinedMessages)
      .where(eq(quarantinedMessages.machineId, machines[0]!));
    expect(rows.map((row) => row.reason).sort()).toEqual([
      ...Array<string>(KEPT_PER_MACHINE_PER_MINUTE + 1).fill('invalid'),
      'rate_limited',
    ]);
  });
});
