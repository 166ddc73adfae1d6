import {
  COMMAND_CLOCK_TOLERANCE_MS,
  COMMAND_RESULT_SCHEMAS,
  IdentityResultSchema,
  MachineProgramMessageSchema,
  PresenceMessageSchema,
  ReplyMessageSchema,
  TelemetryMessageSchema,
  TOPIC_ROOT,
  type TelemetryMessage,
  topics,
} from '@pivot/contracts';
import { describe, expect, it, vi } from 'vitest';
import { wedgeProgram } from '../src/fleet-layout';
import { normaliseAngle } from '../src/geo';
import type { PivotMachine } from '../src/pivot-machine';
import { describeOnBrokers } from './support/brokers';
import { TEST_SITE, sleep, useProtocolHarness } from './support/protocol-harness';
import { type ReceivedMessage, TestServer, json } from './support/test-server';

/** Fast enough that the arm visibly turns between 100 ms reports. */
const FAST_TIME = { timeScale: 600 };
const EAST_WET_WEST_FORBIDDEN = wedgeProgram(TEST_SITE, TEST_SITE.armLength, 'Half and half', [
  { name: 'East', rate: 10, from: 0, to: 180 },
  { name: 'West', rate: -1, from: 180, to: 360 },
]);

function parseReply(message: ReceivedMessage | undefined) {
  return ReplyMessageSchema.parse(json(message));
}

describeOnBrokers('pivot machine protocol', (brokerUrl) => {
  const harness = useProtocolHarness(brokerUrl);
  const telemetryOf = (id: string): TelemetryMessage[] =>
    harness.server.on(topics.telemetry(id)).map((message) => TelemetryMessageSchema.parse(json(message)));
  const latestTelemetry = (id: string) => telemetryOf(id).at(-1);

  it('announces itself online with its program, both retained, and reports telemetry at once', async () => {
    const { id } = await harness.startMachine();
    await vi.waitFor(() => expect(telemetryOf(id)).not.toHaveLength(0));
    expect(PresenceMessageSchema.parse(json(harness.server.on(topics.presence(id)).at(-1)))).toMatchObject({
      v: 1,
      online: true,
    });
    expect(MachineProgramMessageSchema.parse(json(harness.server.on(topics.program(id)).at(-1)))).toEqual({
      v: 1,
      program: null,
    });

    const latecomer = await TestServer.connect(brokerUrl());
    await latecomer.watch(`${TOPIC_ROOT}/machines/${id}/+`);
    await vi.waitFor(() => {
      expect(latecomer.on(topics.presence(id))).toMatchObject([{ retain: true }]);
      expect(latecomer.on(topics.program(id))).toMatchObject([{ retain: true }]);
    });
    expect(json(latecomer.on(topics.presence(id))[0])).toMatchObject({ online: true });
    await latecomer.close();
  });

  it('answers identify with its centre, arm length and model', async () => {
    const { id } = await harness.startMachine({ name: 'Pole testowe' });
    const command = await harness.server.send(id, { type: 'identify' });
    await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
    const reply = parseReply(harness.server.repliesTo(command.id)[0]);
    expect(reply).toMatchObject({ v: 1, id: command.id, ok: true });
    expect(IdentityResultSchema.parse(reply.ok && reply.result)).toEqual({
      name: 'Pole testowe',
      ...TEST_SITE,
      model: 'Pivot simulator',
      firmware: expect.any(String),
    });
  });

  it('moves clockwise on front, counter-clockwise on back and stays on stop, with telemetry following', async () => {
    const { id } = await harness.startMachine({ ...FAST_TIME, movingTelemetryMs: 50, restingTelemetryMs: 5000 });
    const moveAndWatch = async (motion: 'front' | 'back' | 'stop') => {
      const command = await harness.server.send(id, { type: 'motion', motion });
      await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
      expect(parseReply(harness.server.repliesTo(command.id)[0])).toMatchObject({
        ok: true,
        result: { status: motion },
      });
      expect(latestTelemetry(id)?.status).toBe(motion);
      const reportsBefore = telemetryOf(id).length;
      await sleep(400);
      return telemetryOf(id).slice(reportsBefore - 1);
    };
    const turns = (reports: TelemetryMessage[]) =>
      reports.slice(1).map((report, index) => normaliseAngle(report.angle - reports[index]!.angle + 180) - 180);

    const front = await moveAndWatch('front');
    expect(front.length).toBeGreaterThan(4);
    expect(turns(front).every((turn) => turn > 0)).toBe(true);
    expect(front.at(-1)).toMatchObject({ flow: expect.any(Number), pressure: expect.any(Number) });
    expect(front.at(-1)!.flow).toBeGreaterThan(0);

    const back = await moveAndWatch('back');
    expect(turns(back).every((turn) => turn < 0)).toBe(true);

    const stop = await moveAndWatch('stop');
    expect(stop).toHaveLength(1);
    expect(stop[0]).toMatchObject({ status: 'stop', flow: 0, pressure: 0 });
  });

  it('publishes telemetry that parses, with ts unique and increasing, even when flooding', async () => {
    const machine = await harness.startMachine({ motion: 'front', movingTelemetryMs: 20 });
    await sleep(300);
    await machine.floodTelemetry(500, 50);
    await vi.waitFor(() => expect(telemetryOf(machine.id).length).toBeGreaterThan(510));
    const stamps = telemetryOf(machine.id).map((report) => report.ts);
    expect(stamps.slice(1).every((ts, index) => ts > stamps[index]!)).toBe(true);
  });

  it('tells the ts of each telemetry report the broker acknowledged, the reports it sent', async () => {
    const acknowledged: number[] = [];
    const machine = await harness.startMachine({
      motion: 'front',
      movingTelemetryMs: 20,
      onReportAcknowledged: (ts) => acknowledged.push(ts),
    });
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThan(10));
    await machine.stop();
    expect(acknowledged).toHaveLength(machine.telemetryAcknowledged);
    await vi.waitFor(() => expect(telemetryOf(machine.id).map((report) => report.ts)).toEqual(acknowledged));
  });

  it('carries out a repeated command once and answers it again with the same reply', async () => {
    const { id } = await harness.startMachine();
    const front = await harness.server.send(id, { type: 'motion', motion: 'front' });
    await vi.waitFor(() => expect(harness.server.repliesTo(front.id)).toHaveLength(1));
    const stop = await harness.server.send(id, { type: 'motion', motion: 'stop' });
    await vi.waitFor(() => expect(harness.server.repliesTo(stop.id)).toHaveLength(1));

    const { sentAt, expiresAt } = front;
    await harness.server.send(id, { type: 'motion', motion: 'front', id: front.id, sentAt, expiresAt });
    await vi.waitFor(() => expect(harness.server.repliesTo(front.id)).toHaveLength(2));
    const [first, again] = harness.server.repliesTo(front.id);
    expect(again!.payload).toBe(first!.payload);
    await sleep(200);
    expect(latestTelemetry(id)?.status).toBe('stop');
  });

  describe('acting on a command only in time, by its own clock', () => {
    const TOLERANCE = COMMAND_CLOCK_TOLERANCE_MS;

    /** Sends a motion to front and waits for the one answer. */
    async function sendFront(machine: PivotMachine, times: { id?: string; sentAt?: number; expiresAt?: number } = {}) {
      const command = await harness.server.send(machine.id, { type: 'motion', motion: 'front', ...times });
      await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
      return { command, reply: parseReply(harness.server.repliesTo(command.id)[0]) };
    }

    it('refuses a fresh command as clock_skew with its clock 10 s behind, and does not move', async () => {
      const machine = await harness.startMachine({ clockOffsetMs: -10_000 });
      const { reply } = await sendFront(machine);
      expect(reply).toMatchObject({ ok: false, error: { code: 'clock_skew', message: expect.any(String) } });
      await sleep(200);
      expect(machine.state().status).toBe('stop');
      expect(latestTelemetry(machine.id)?.status).toBe('stop');
    });

    it('refuses a fresh command as expired with its clock 10 s ahead, and does not move; its reports carry its clock', async () => {
      const machine = await harness.startMachine({ clockOffsetMs: 10_000 });
      const { reply } = await sendFront(machine);
      expect(reply).toMatchObject({ ok: false, error: { code: 'expired', message: expect.any(String) } });
      await sleep(200);
      expect(machine.state().status).toBe('stop');
      expect(latestTelemetry(machine.id)?.ts).toBeGreaterThan(Date.now() + 9000);
    });

    it.each([-500, 500])('acts on a fresh command with its clock %i ms off', async (clockOffsetMs) => {
      const machine = await harness.startMachine({ clockOffsetMs });
      // The shortest timeout the server allows.
      const { reply } = await sendFront(machine, { expiresAt: Date.now() + 2 * TOLERANCE + 1000 });
      expect(reply).toMatchObject({ ok: true, result: { status: 'front' } });
      expect(machine.state().status).toBe('front');
    });

    it.each([-TOLERANCE, 0, TOLERANCE])(
      'refuses as expired a command delivered just after its expiry, with its clock %i ms off',
      async (clockOffsetMs) => {
        const machine = await harness.startMachine({ clockOffsetMs });
        const now = Date.now();
        const { reply } = await sendFront(machine, { sentAt: now - 5000, expiresAt: now - 1 });
        expect(reply).toMatchObject({ ok: false, error: { code: 'expired' } });
        await sleep(200);
        expect(machine.state().status).toBe('stop');
      },
    );

    it.each([-TOLERANCE, TOLERANCE])(
      'does not act on a command kept in its session while it was away and delivered after expiry, with its clock %i ms off',
      async (clockOffsetMs) => {
        const machine = await harness.startMachine({ clockOffsetMs });
        await machine.crash();
        await vi.waitFor(() =>
          expect(json(harness.server.on(topics.presence(machine.id)).at(-1))).toMatchObject({ online: false }),
        );
        // Fresh when published: by the server's clock it expires while the machine is away.
        const command = await harness.server.send(machine.id, {
          type: 'motion',
          motion: 'front',
          expiresAt: Date.now() + 2 * TOLERANCE + 300,
        });
        await sleep(command.expiresAt - Date.now() + 50);
        await machine.start();
        await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
        expect(parseReply(harness.server.repliesTo(command.id)[0])).toMatchObject({
          ok: false,
          error: { code: 'expired' },
        });
        await sleep(200);
        expect(machine.state().status).toBe('stop');
      },
    );

    it('answers a repeat of a refused command with the same refusal, even once its clock would let it through', async () => {
      const machine = await harness.startMachine();
      const now = Date.now();
      // Sent by a server whose clock is ahead: too early for this machine.
      const { command, reply } = await sendFront(machine, { sentAt: now + 5000, expiresAt: now + 10_000 });
      expect(reply).toMatchObject({ ok: false, error: { code: 'clock_skew' } });
      await harness.server.send(machine.id, {
        type: 'motion',
        motion: 'front',
        id: command.id,
        sentAt: now,
        expiresAt: now + 5000,
      });
      await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(2));
      const [first, again] = harness.server.repliesTo(command.id);
      expect(again!.payload).toBe(first!.payload);
      expect(machine.state().status).toBe('stop');
    });
  });

  it('accepts a program at once, then publishes it retained as current after processing', async () => {
    const machine = await harness.startMachine({ programProcessingMs: 300 });
    const sentAt = Date.now();
    const command = await harness.server.send(machine.id, { type: 'program', program: EAST_WET_WEST_FORBIDDEN });
    await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
    expect(parseReply(harness.server.repliesTo(command.id)[0])).toMatchObject({ ok: true, result: { accepted: true } });
    expect(Date.now() - sentAt).toBeLessThan(300);
    expect(machine.state().program).toBeNull();

    await vi.waitFor(() => expect(harness.server.on(topics.program(machine.id))).toHaveLength(2));
    const published = harness.server.on(topics.program(machine.id))[1]!;
    const { program } = MachineProgramMessageSchema.parse(json(published));
    expect(published.retain).toBe(false);
    expect(program).toMatchObject(EAST_WET_WEST_FORBIDDEN);
    expect(program!.uploadedAt).toBeGreaterThanOrEqual(sentAt + 300);
    expect(machine.state()).toMatchObject({ sector: 'East', program: { name: 'Half and half' } });

    const latecomer = await TestServer.connect(brokerUrl());
    await latecomer.watch(topics.program(machine.id));
    await vi.waitFor(() => expect(latecomer.on(topics.program(machine.id))).toMatchObject([{ retain: true }]));
    expect(json(latecomer.on(topics.program(machine.id))[0])).toEqual({ v: 1, program });
    await latecomer.close();
  });

  it('goes offline through its will when it crashes, and by itself when it stops', async () => {
    const crashing = await harness.startMachine();
    await crashing.crash();
    await vi.waitFor(() =>
      expect(harness.server.on(topics.presence(crashing.id)).map((message) => json(message))).toContainEqual({
        v: 1,
        online: false,
      }),
    );
    const latecomer = await TestServer.connect(brokerUrl());
    await latecomer.watch(topics.presence(crashing.id));
    await vi.waitFor(() => expect(latecomer.on(topics.presence(crashing.id))).toHaveLength(1));
    expect(json(latecomer.on(topics.presence(crashing.id))[0])).toEqual({ v: 1, online: false });
    await latecomer.close();

    const stopping = await harness.startMachine();
    await stopping.stop();
    await vi.waitFor(() =>
      expect(json(harness.server.on(topics.presence(stopping.id)).at(-1))).toEqual({ v: 1, online: false }),
    );
  });

  it('raises a pressure-loss alarm that stops the arm until a motion command clears it', async () => {
    const { id } = await harness.startMachine({ ...FAST_TIME, motion: 'front', alarmChancePerHour: 1 });
    await vi.waitFor(() => expect(latestTelemetry(id)).toMatchObject({ status: 'alarm', alarm: 'pressure_loss' }));
    expect(latestTelemetry(id)).toMatchObject({ flow: 0, pressure: 0 });
    const alarmAngle = latestTelemetry(id)!.angle;
    await sleep(250);
    expect(latestTelemetry(id)).toMatchObject({ status: 'alarm', angle: alarmAngle });

    const command = await harness.server.send(id, { type: 'motion', motion: 'back' });
    await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
    expect(parseReply(harness.server.repliesTo(command.id)[0])).toMatchObject({ result: { status: 'back' } });
  });

  it('ignores malformed commands and answers an unknown command type as unsupported', async () => {
    const machine = await harness.startMachine();
    const commands = topics.commands(machine.id);
    await harness.server.publish(commands, '{"v":1,"id":"broken"');
    await harness.server.publish(commands, JSON.stringify({ v: 2, id: 'future', type: 'identify' }));
    await harness.server.publish(
      commands,
      JSON.stringify({
        v: 1,
        id: 'sideways',
        type: 'motion',
        motion: 'sideways',
        replyTo: topics.replies(harness.server.serverId, machine.id),
        sentAt: Date.now(),
        expiresAt: Date.now() + 5000,
      }),
    );
    const unknown = {
      v: 1,
      id: `calibrate-${machine.id}`,
      type: 'calibrate',
      replyTo: topics.replies(harness.server.serverId, machine.id),
    };
    await harness.server.publish(
      commands,
      JSON.stringify({ ...unknown, sentAt: Date.now(), expiresAt: Date.now() + 5000 }),
    );
    await vi.waitFor(() => expect(harness.server.repliesTo(unknown.id)).toHaveLength(1));
    expect(parseReply(harness.server.repliesTo(unknown.id)[0])).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    expect(harness.server.repliesTo('sideways')).toHaveLength(0);
    expect(machine.state().status).toBe('stop');
  });

  describe('misbehaviour', () => {
    /**
     * A motion command that the machine is told to answer badly, expiring as soon as a machine
     * whose clock is ahead by the tolerance still acts on it.
     */
    async function misbehavingMotion(kind: 'late' | 'missing', motion: 'front' | 'back', clockOffsetMs = 0) {
      const machine = await harness.startMachine({ clockOffsetMs });
      machine.misbehaveNext(kind);
      const expiresAt = Date.now() + 2 * COMMAND_CLOCK_TOLERANCE_MS + 300;
      const command = await harness.server.send(machine.id, { type: 'motion', motion, expiresAt });
      return { machine, command };
    }

    it.each([0, COMMAND_CLOCK_TOLERANCE_MS])(
      'answers late: after expiresAt, having carried the command out in time, with its clock %i ms ahead',
      async (clockOffsetMs) => {
        const { machine, command } = await misbehavingMotion('late', 'front', clockOffsetMs);
        await sleep(250);
        expect(harness.server.repliesTo(command.id)).toHaveLength(0);
        expect(machine.state().status).toBe('front');
        await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1), { timeout: 5000 });
        expect(Date.now()).toBeGreaterThan(command.expiresAt);
        expect(parseReply(harness.server.repliesTo(command.id)[0])).toMatchObject({ ok: true });
      },
    );

    it('does not answer at all, having carried the command out', async () => {
      const { machine, command } = await misbehavingMotion('missing', 'back');
      await sleep(1000);
      expect(harness.server.repliesTo(command.id)).toHaveLength(0);
      expect(machine.state().status).toBe('back');
    });

    it('answers with a reply the server cannot use', async () => {
      const machine = await harness.startMachine();
      for (const attempt of [1, 2, 3, 4]) {
        machine.misbehaveNext('malformed');
        const command = await harness.server.send(machine.id, { type: 'identify', id: `${machine.id}-${attempt}` });
        await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
        expect(isUsableReply(harness.server.repliesTo(command.id)[0]!, 'identify')).toBe(false);
      }
    });

    it('answers twice with the same reply', async () => {
      const machine = await harness.startMachine();
      machine.misbehaveNext('duplicate');
      const command = await harness.server.send(machine.id, { type: 'identify' });
      await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(2));
      const [first, second] = harness.server.repliesTo(command.id);
      expect(second!.payload).toBe(first!.payload);
      expect(isUsableReply(first!, 'identify')).toBe(true);
      await sleep(200);
      expect(harness.server.repliesTo(command.id)).toHaveLength(2);
    });

    it('misbehaves in the configured share of replies', async () => {
      const machine = await harness.startMachine({ misbehaviour: { duplicate: 1 } });
      const identify = await harness.server.send(machine.id, { type: 'identify' });
      const motion = await harness.server.send(machine.id, { type: 'motion', motion: 'front' });
      await vi.waitFor(() => {
        expect(harness.server.repliesTo(identify.id)).toHaveLength(2);
        expect(harness.server.repliesTo(motion.id)).toHaveLength(2);
      });
    });
  });
});

/** What the server checks: the reply parses, succeeds, and its result has the shape the command type calls for. */
function isUsableReply(message: ReceivedMessage, type: keyof typeof COMMAND_RESULT_SCHEMAS): boolean {
  let body: unknown;
  try {
    body = JSON.parse(message.payload);
  } catch {
    return false;
  }
  const reply = ReplyMessageSchema.safeParse(body);
  return reply.success && reply.data.ok && COMMAND_RESULT_SCHEMAS[type].safeParse(reply.data.result).success;
}
