import {
  PresenceMessageSchema,
  ReplyMessageSchema,
  TOPIC_ROOT,
  type TelemetryMessage,
  TelemetryMessageSchema,
  topics,
} from '@pivot/contracts';
import { describe, expect, it, vi } from 'vitest';
import { normaliseAngle } from '../src/geo';
import { describeOnBrokers } from './support/brokers';
import { sleep, useProtocolHarness } from './support/protocol-harness';
import { json } from './support/test-server';

/** The harness's machines report every 100 ms while moving. */
const MOVING_INTERVAL_MS = 100;
/**
 * Frozen this long: far more than three moving intervals, after which the server counts a silent
 * machine offline, and long enough that a broker would have dropped a client whose keepalive of
 * 1 s had stopped (aedes after 1.5 s, Mosquitto after about 3 s) and published its will.
 */
const FROZEN_MS = 4000;

describeOnBrokers('machines misbehaving for the incident detection', (brokerUrl, connectedClients) => {
  const harness = useProtocolHarness(brokerUrl);
  const telemetryOf = (id: string): TelemetryMessage[] =>
    harness.server.on(topics.telemetry(id)).map((message) => TelemetryMessageSchema.parse(json(message)));
  const latestTelemetry = (id: string) => telemetryOf(id).at(-1);
  const presenceOf = (id: string) =>
    harness.server.on(topics.presence(id)).map((message) => PresenceMessageSchema.parse(json(message)));
  /** Everything the machine published: its topics (less the commands it is sent) and its replies. */
  const publishedBy = (id: string) =>
    harness.server.messages.filter(
      (message) =>
        (message.topic.startsWith(`${TOPIC_ROOT}/machines/${id}/`) && message.topic !== topics.commands(id)) ||
        message.topic === topics.replies(harness.server.serverId, id),
    );
  const commandsTo = (id: string) => harness.server.on(topics.commands(id));
  async function motion(id: string, motion: 'front' | 'back' | 'stop') {
    const command = await harness.server.send(id, { type: 'motion', motion });
    await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
    return ReplyMessageSchema.parse(json(harness.server.repliesTo(command.id)[0]));
  }
  /** The reports from the given one on, up to and with the first alarm after it. */
  async function untilAlarm(
    id: string,
    from: number,
  ): Promise<{ before: TelemetryMessage[]; alarm: TelemetryMessage }> {
    await vi.waitFor(
      () =>
        expect(
          telemetryOf(id)
            .slice(from)
            .some((report) => report.status === 'alarm'),
        ).toBe(true),
      {
        timeout: 5000,
      },
    );
    const reports = telemetryOf(id).slice(from);
    const index = reports.findIndex((report) => report.status === 'alarm');
    return { before: reports.slice(0, index), alarm: reports[index]! };
  }
  const isLowPressureWhileMoving = (report: TelemetryMessage) =>
    report.status === 'front' && report.flow === 0 && report.pressure > 0.1 && report.pressure < 0.3;

  describe('cut water', () => {
    // 3 s of simulated time at 4 times life: the safety stops the arm 750 ms after the water is cut.
    const SAFETY = { timeScale: 4, pressureSafetyDelayMs: 3000 };
    const SAFETY_REAL_MS = 750;

    it('reports low pressure and no flow while moving, then its safety stops it with a pressure-loss alarm', async () => {
      const machine = await harness.startMachine({ ...SAFETY, motion: 'front' });
      const { id } = machine;
      await vi.waitFor(() => expect(telemetryOf(id).length).toBeGreaterThan(2));
      expect(latestTelemetry(id)!.flow).toBeGreaterThan(100);
      expect(latestTelemetry(id)!.pressure).toBeGreaterThan(2);

      const from = telemetryOf(id).length;
      const cutAt = Date.now();
      machine.cutWater();
      const { before, alarm } = await untilAlarm(id, from);
      // At once, then at every moving interval, until the safety acts.
      expect(before[0]!.ts - cutAt).toBeLessThan(MOVING_INTERVAL_MS);
      expect(before.length).toBeGreaterThanOrEqual(5);
      expect(before.every(isLowPressureWhileMoving)).toBe(true);
      expect(alarm).toMatchObject({ status: 'alarm', alarm: 'pressure_loss', flow: 0, pressure: 0 });
      expect(alarm.ts - cutAt).toBeGreaterThanOrEqual(SAFETY_REAL_MS - 20);
      expect(alarm.ts - cutAt).toBeLessThan(SAFETY_REAL_MS + MOVING_INTERVAL_MS);
      expect(commandsTo(id)).toHaveLength(0);

      await sleep(300);
      expect(latestTelemetry(id)).toMatchObject({ status: 'alarm', angle: alarm.angle });
      expect(machine.state()).toMatchObject({ status: 'alarm', waterCut: true, watering: false });
    });

    it('started again with the water still cut, trips again; with the water back, stays in alarm until a motion command, then waters', async () => {
      const machine = await harness.startMachine({ ...SAFETY, motion: 'front' });
      const { id } = machine;
      machine.cutWater();
      await untilAlarm(id, 0);

      const restartFrom = telemetryOf(id).length;
      expect(await motion(id, 'front')).toMatchObject({ ok: true, result: { status: 'front' } });
      const again = await untilAlarm(id, restartFrom);
      expect(again.before.length).toBeGreaterThanOrEqual(5);
      expect(again.before.every(isLowPressureWhileMoving)).toBe(true);
      expect(again.alarm).toMatchObject({ alarm: 'pressure_loss' });

      machine.restoreWater();
      await sleep(300);
      expect(latestTelemetry(id)).toMatchObject({ status: 'alarm', alarm: 'pressure_loss', flow: 0 });

      expect(await motion(id, 'front')).toMatchObject({ ok: true, result: { status: 'front' } });
      const wateringFrom = telemetryOf(id).length;
      await sleep(SAFETY_REAL_MS + 300);
      const watering = telemetryOf(id).slice(wateringFrom);
      expect(watering.length).toBeGreaterThanOrEqual(5);
      for (const report of watering) {
        expect(report).toMatchObject({ status: 'front' });
        expect(report).not.toHaveProperty('alarm');
        expect(report.flow).toBeGreaterThan(100);
        expect(report.pressure).toBeGreaterThan(2);
      }
    });
  });

  it('stops unexpectedly: status stop with no alarm and no command, and stays so', async () => {
    const machine = await harness.startMachine({ timeScale: 600, motion: 'front', restingTelemetryMs: 5000 });
    const { id } = machine;
    await vi.waitFor(() => expect(telemetryOf(id).length).toBeGreaterThan(2));
    expect(latestTelemetry(id)!.status).toBe('front');

    expect(machine.stopUnexpectedly()).toBe(true);
    await vi.waitFor(() => expect(latestTelemetry(id)).toMatchObject({ status: 'stop', flow: 0, pressure: 0 }));
    const stopped = latestTelemetry(id)!;
    expect(stopped).not.toHaveProperty('alarm');
    expect(commandsTo(id)).toHaveLength(0);

    const reports = telemetryOf(id).length;
    await sleep(400);
    expect(telemetryOf(id)).toHaveLength(reports);
    expect(machine.state()).toMatchObject({ status: 'stop', alarm: null });
    expect(machine.state().angle).toBeCloseTo(stopped.angle, 2);
    expect(machine.stopUnexpectedly()).toBe(false);
  });

  it('freezes with its connection open: publishes nothing, answers no command, no last will; unfrozen, reports again', async () => {
    // A keepalive of 1 s: still connected after FROZEN_MS, the client went on pinging the broker.
    const machine = await harness.startMachine({ timeScale: 600, motion: 'front', keepaliveSeconds: 1 });
    const { id } = machine;
    await vi.waitFor(() => expect(telemetryOf(id).length).toBeGreaterThan(2));

    machine.freeze();
    await sleep(50);
    const publishedBefore = publishedBy(id).length;
    const presenceBefore = presenceOf(id).length;
    const command = await harness.server.send(id, { type: 'motion', motion: 'back' });
    const identify = await harness.server.send(id, { type: 'identify' });
    await sleep(FROZEN_MS);

    expect(publishedBy(id)).toHaveLength(publishedBefore);
    expect(presenceOf(id)).toHaveLength(presenceBefore);
    expect(presenceOf(id).at(-1)).toMatchObject({ online: true });
    expect(harness.server.repliesTo(command.id)).toHaveLength(0);
    expect(harness.server.repliesTo(identify.id)).toHaveLength(0);
    expect(machine.state()).toMatchObject({ connected: true, frozen: true, status: 'front' });
    if (connectedClients) expect(connectedClients().has(id)).toBe(true);

    const frozenAngle = latestTelemetry(id)!.angle;
    const from = telemetryOf(id).length;
    machine.unfreeze();
    await vi.waitFor(() => expect(telemetryOf(id).length).toBeGreaterThan(from + 2));
    const resumed = telemetryOf(id).slice(from);
    // The arm ran on while its controller hung; the command that came meanwhile is lost.
    expect(resumed.every((report) => report.status === 'front')).toBe(true);
    expect(normaliseAngle(resumed[0]!.angle - frozenAngle)).toBeGreaterThan(1);
    expect(harness.server.repliesTo(command.id)).toHaveLength(0);
    expect(presenceOf(id)).toHaveLength(presenceBefore);
    expect(machine.state()).toMatchObject({ connected: true, frozen: false });

    expect(await motion(id, 'stop')).toMatchObject({ ok: true, result: { status: 'stop' } });
  });

  it('drops off without a DISCONNECT, so the broker publishes its last will, and stays away until it comes back', async () => {
    const machine = await harness.startMachine({ timeScale: 600, motion: 'front' });
    const { id } = machine;
    await vi.waitFor(() => expect(telemetryOf(id).length).toBeGreaterThan(2));

    await machine.dropOff();
    await vi.waitFor(() => expect(presenceOf(id).at(-1)).toEqual({ v: 1, online: false }));
    expect(machine.state()).toMatchObject({ connected: false, away: true });
    if (connectedClients) expect(connectedClients().has(id)).toBe(false);
    await sleep(50);
    const awayAngle = latestTelemetry(id)!.angle;
    const publishedAway = publishedBy(id).length;
    // Kept in its persistent session until it is back.
    const command = await harness.server.send(id, { type: 'motion', motion: 'stop' });
    await sleep(1000);
    expect(publishedBy(id)).toHaveLength(publishedAway);
    expect(harness.server.repliesTo(command.id)).toHaveLength(0);

    const from = telemetryOf(id).length;
    const backAt = Date.now();
    await machine.comeBack();
    await vi.waitFor(() => expect(presenceOf(id).at(-1)).toMatchObject({ v: 1, online: true }));
    expect(presenceOf(id).at(-1)!.ts).toBeGreaterThanOrEqual(backAt);
    expect(machine.state()).toMatchObject({ connected: true, away: false });
    if (connectedClients) expect(connectedClients().has(id)).toBe(true);
    await vi.waitFor(() => expect(harness.server.repliesTo(command.id)).toHaveLength(1));
    expect(ReplyMessageSchema.parse(json(harness.server.repliesTo(command.id)[0]))).toMatchObject({
      ok: true,
      result: { status: 'stop' },
    });
    await vi.waitFor(() => expect(latestTelemetry(id)?.status).toBe('stop'));
    // The arm turned on while the machine was away.
    const back = telemetryOf(id).slice(from);
    expect(normaliseAngle(back.at(-1)!.angle - awayAngle)).toBeGreaterThan(1);
  });

  it('says why it cannot freeze or drop off when not connected, and does nothing when already so', async () => {
    const machine = await harness.startMachine();
    await machine.dropOff();
    expect(() => machine.freeze()).toThrow(/not connected/);
    await machine.dropOff();
    await machine.comeBack();
    await machine.comeBack();
    machine.freeze();
    machine.freeze();
    expect(machine.state()).toMatchObject({ frozen: true, connected: true });
    machine.unfreeze();
    machine.unfreeze();
    expect(machine.state()).toMatchObject({ frozen: false, connected: true, away: false });
    await machine.stop();
    await expect(machine.dropOff()).rejects.toThrow(/not connected/);
  });
});
