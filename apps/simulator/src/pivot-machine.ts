import {
  COMMAND_CLOCK_TOLERANCE_MS,
  type CommandMessage,
  type IdentityResult,
  MachineProgramMessageSchema,
  type Motion,
  PresenceMessageSchema,
  PROTOCOL_VERSION,
  type ReplyMessage,
  ReplyMessageSchema,
  type TelemetryMessage,
  TelemetryMessageSchema,
  topics,
} from '@pivot/contracts';
import { type MqttClient, connect } from 'mqtt';
import { type CommandEnvelope, okReply, parseCommand, refusalByClock, unsupportedReply } from './commands';
import { normaliseAngle } from './geo';
import type { Sweep } from './irrigation';
import { type Logger, silentLogger } from './logger';
import { Misbehaviour, type MisbehaviourKind, type MisbehaviourShares, malformedReply } from './misbehaviour';
import { encode, waitForConnection } from './mqtt-connection';
import { type CurrentProgram, PivotArm } from './pivot-arm';
import { type Random, createRandom } from './random';
import { ReplyMemory } from './reply-memory';
import { MAX_CLOCK_OFFSET_MS, UniqueClock, type WallClock, offsetClock } from './unique-clock';
import { assertInRange, assertPositive, assertTopicId, withDefaults } from './validation';

/** A program as the server uploads it: a name and its sectors. */
export type ProgramUpload = Extract<CommandMessage, { type: 'program' }>['program'];

export type PivotMachineOptions = {
  brokerUrl: string;
  /** The machine ID, also its MQTT client id and username. */
  id: string;
  /** The controller's secret, its MQTT password; without it the machine connects anonymously, which only an open broker takes. */
  secret?: string;
  name?: string;
  lat: number;
  lng: number;
  /** m */
  armLength: number;
  /** Top speed of the end tower, m/min; 3 by default. */
  topSpeed?: number;
  /** Nominal flow while watering, m³/h; 90 by default. */
  flow?: number;
  /** Nominal pressure while watering, bar; 2.5 by default. */
  pressure?: number;
  /** Where the arm starts, degrees clockwise from north. */
  angle?: number;
  /** How the machine starts; stop by default. */
  motion?: Motion;
  /** The program it runs from the start, as if uploaded when the machine was built. */
  program?: ProgramUpload | null;
  /** Simulated minutes per real minute; 1 by default. */
  timeScale?: number;
  /**
   * How far the controller's clock is off, ms (ahead when positive); 0 by default. It reads this
   * clock for everything: the timestamps it reports and whether a command is still to be acted on.
   */
  clockOffsetMs?: number;
  /** Chance of a pressure-loss alarm per simulated hour of watering, 0–1; 0 by default. */
  alarmChancePerHour?: number;
  /** Telemetry interval while moving, ms; 5 s by default. */
  movingTelemetryMs?: number;
  /** Telemetry interval at rest, ms; 60 s by default. */
  restingTelemetryMs?: number;
  /** How long processing an uploaded program takes, ms; 2 s by default. */
  programProcessingMs?: number;
  misbehaviour?: MisbehaviourShares;
  seed?: number;
  logger?: Logger;
  /** Told of every stretch the arm waters, so soil sensors under it get wet. */
  onSweep?: (sweep: Sweep) => void;
};

/** A weather station or soil probe wired to a controller: it publishes through the controller's connection. */
export type Peripheral = { start(client: MqttClient): void; stop(): void };

export type PivotMachineState = {
  id: string;
  connected: boolean;
  status: TelemetryMessage['status'];
  alarm: string | null;
  angle: number;
  speed: number;
  watering: boolean;
  /** The name of the program sector under the arm. */
  sector: string | null;
  program: CurrentProgram | null;
};

const MACHINE_DEFAULTS = {
  topSpeed: 3,
  flow: 90,
  pressure: 2.5,
  angle: 0,
  motion: 'stop' as Motion,
  timeScale: 1,
  clockOffsetMs: 0,
  alarmChancePerHour: 0,
  movingTelemetryMs: 5000,
  restingTelemetryMs: 60_000,
  programProcessingMs: 2000,
  seed: 1,
} satisfies Partial<PivotMachineOptions>;
type MachineSettings = PivotMachineOptions & typeof MACHINE_DEFAULTS;

function assertMachineSettings(settings: MachineSettings): void {
  assertTopicId(settings.id);
  assertInRange('The latitude', settings.lat, -90, 90);
  assertInRange('The longitude', settings.lng, -180, 180);
  assertInRange('The arm length', settings.armLength, 1, 2000);
  assertPositive('The top speed', settings.topSpeed);
  assertPositive('The flow', settings.flow);
  assertPositive('The pressure', settings.pressure);
  assertPositive('The time scale', settings.timeScale);
  assertInRange('The clock offset', settings.clockOffsetMs, -MAX_CLOCK_OFFSET_MS, MAX_CLOCK_OFFSET_MS);
  assertPositive('The moving telemetry interval', settings.movingTelemetryMs);
  assertPositive('The resting telemetry interval', settings.restingTelemetryMs);
  assertInRange('The alarm chance per hour', settings.alarmChancePerHour, 0, 1);
  assertInRange('The program processing time', settings.programProcessingMs, 0, 600_000);
}

const MODEL = 'Pivot simulator';
const FIRMWARE = 'simulator-1.0';
const LATE_REPLY_MARGIN_MS = 500;
const RECONNECT_PERIOD_MS = 1000;
/** An MQTT client with unbounded publishes in flight stalls; a few hundred keeps it busy and moving. */
const DEFAULT_MAX_IN_FLIGHT = 300;
const OFFLINE = encode(PresenceMessageSchema, { v: PROTOCOL_VERSION, online: false });

/** One simulated centre pivot with its own MQTT connection, following docs/protocol.md. */
export class PivotMachine {
  readonly id: string;
  private readonly arm: PivotArm;
  private readonly random: Random;
  private readonly misbehaviour: Misbehaviour;
  private readonly replies = new ReplyMemory();
  /** The controller's own clock, which may be off; every time the machine reads is from it. */
  private readonly wallClock: WallClock;
  private readonly clock: UniqueClock;
  private readonly lateReplies = new Set<NodeJS.Timeout>();
  private readonly logger: Logger;
  private client: MqttClient | null = null;
  private readonly peripherals: Peripheral[] = [];
  private telemetryTimer: NodeJS.Timeout | undefined;
  private programTimer: NodeJS.Timeout | undefined;
  private lastAdvance: number;
  private readonly settings: MachineSettings;

  constructor(options: PivotMachineOptions) {
    this.settings = withDefaults(options, MACHINE_DEFAULTS);
    assertMachineSettings(this.settings);
    const { id, lat, lng, seed } = this.settings;
    this.id = id;
    this.wallClock = offsetClock(this.settings.clockOffsetMs);
    this.clock = new UniqueClock(this.wallClock);
    this.lastAdvance = this.wallClock();
    this.logger = this.settings.logger ?? silentLogger;
    this.random = createRandom(seed);
    this.misbehaviour = new Misbehaviour(this.settings.misbehaviour ?? {}, this.random.fork());
    this.arm = new PivotArm({ ...this.settings, centre: { lat, lng } }, this.random.fork(), {
      angle: this.settings.angle,
      status: this.settings.motion,
      program: options.program ? { ...options.program, uploadedAt: this.wallClock() } : null,
    });
  }

  /** Connects with its last will set, then announces itself online with its program and telemetry. */
  async start(): Promise<void> {
    if (this.client) throw new Error(`Machine ${this.id} is already started`);
    const presence = topics.presence(this.id);
    const client = connect(this.settings.brokerUrl, {
      clientId: this.id,
      ...(this.settings.secret === undefined ? {} : { username: this.id, password: this.settings.secret }),
      clean: false,
      reconnectPeriod: RECONNECT_PERIOD_MS,
      will: { topic: presence, payload: OFFLINE, qos: 1, retain: true },
    });
    this.client = client;
    client.on('message', (_topic, payload) => this.onCommand(payload));
    client.on('error', (error) => this.logger.debug('MQTT error', { machine: this.id, error: error.message }));
    try {
      await waitForConnection(client, this.settings.brokerUrl);
    } catch (error) {
      this.client = null;
      await client.endAsync(true);
      throw error;
    }
    this.lastAdvance = this.wallClock();
    await this.announce(client);
    for (const peripheral of this.peripherals) peripheral.start(client);
    client.on('connect', () => {
      this.announce(client).catch((error: unknown) =>
        this.logger.warn('Could not announce after reconnecting', { machine: this.id, error: String(error) }),
      );
    });
  }

  /**
   * Wires a station or probe to this controller: it reports under the machine's topics, through
   * the machine's connection, with the machine's credentials, from when the machine is started.
   */
  speakFor(peripheral: Peripheral): void {
    this.peripherals.push(peripheral);
    if (this.client) peripheral.start(this.client);
  }

  /** Goes offline on purpose: publishes offline presence, then disconnects cleanly. */
  async stop(): Promise<void> {
    const client = this.halt();
    if (!client) return;
    if (client.connected) await client.publishAsync(topics.presence(this.id), OFFLINE, { qos: 1, retain: true });
    await client.endAsync(!client.connected);
  }

  /** Drops the connection without a clean disconnect, as a power cut would, so the broker publishes the will. */
  async crash(): Promise<void> {
    await this.halt()?.endAsync(true);
  }

  state(): PivotMachineState {
    const plan = this.arm.plan();
    return {
      id: this.id,
      connected: this.client?.connected ?? false,
      status: this.arm.status,
      alarm: this.arm.alarm,
      angle: this.arm.angle,
      speed: plan.speedPercent,
      watering: this.arm.isMoving && plan.watering,
      sector: plan.sector,
      program: this.arm.program,
    };
  }

  /** Answers the next command this way, whatever the misbehaviour shares. */
  misbehaveNext(kind: MisbehaviourKind): void {
    this.misbehaviour.forceNext(kind);
  }

  /** For benchmarks: publishes count telemetry reports as fast as the broker takes them, with a cap on those in flight. */
  floodTelemetry(count: number, maxInFlight = DEFAULT_MAX_IN_FLIGHT): Promise<void> {
    const client = this.client;
    if (!client) return Promise.reject(new Error(`Machine ${this.id} is not started`));
    const topic = topics.telemetry(this.id);
    return new Promise((resolve, reject) => {
      let sent = 0;
      let acknowledged = 0;
      const pump = () => {
        while (sent < count && sent - acknowledged < maxInFlight) {
          sent += 1;
          client.publish(topic, this.telemetry(), { qos: 1 }, (error) => {
            if (error) return reject(error);
            acknowledged += 1;
            if (acknowledged === count) resolve();
            else pump();
          });
        }
      };
      if (count <= 0) resolve();
      else pump();
    });
  }

  private halt(): MqttClient | null {
    for (const peripheral of this.peripherals) peripheral.stop();
    clearTimeout(this.telemetryTimer);
    clearTimeout(this.programTimer);
    for (const timer of this.lateReplies) clearTimeout(timer);
    this.lateReplies.clear();
    const client = this.client;
    this.client = null;
    return client;
  }

  private async announce(client: MqttClient): Promise<void> {
    await client.subscribeAsync(topics.commands(this.id), { qos: 1 });
    const online = encode(PresenceMessageSchema, { v: PROTOCOL_VERSION, online: true, ts: this.wallClock() });
    await Promise.all([
      client.publishAsync(topics.presence(this.id), online, { qos: 1, retain: true }),
      client.publishAsync(topics.program(this.id), this.programMessage(), { qos: 1, retain: true }),
    ]);
    this.report();
  }

  /** Brings the arm up to now and hands on what it watered meanwhile. */
  private catchUp(): void {
    const now = this.wallClock();
    const sweeps = this.arm.advance(now - this.lastAdvance);
    this.lastAdvance = now;
    if (this.settings.onSweep) for (const sweep of sweeps) this.settings.onSweep(sweep);
  }

  /** Publishes telemetry now and schedules the next report at the interval for the status. */
  private report(): void {
    clearTimeout(this.telemetryTimer);
    if (!this.client) return;
    this.send(topics.telemetry(this.id), this.telemetry());
    const interval = this.arm.isMoving ? this.settings.movingTelemetryMs : this.settings.restingTelemetryMs;
    this.telemetryTimer = setTimeout(() => {
      this.catchUp();
      this.report();
    }, interval);
  }

  private telemetry(): string {
    const { speed, flow, pressure } = this.arm.readings();
    return encode(TelemetryMessageSchema, {
      v: PROTOCOL_VERSION,
      ts: this.clock.now(),
      status: this.arm.status,
      angle: normaliseAngle(round(this.arm.angle, 2)),
      distance: this.settings.armLength,
      speed: round(speed, 1),
      pressure: round(pressure, 2),
      flow: round(flow, 1),
      ...(this.arm.alarm ? { alarm: this.arm.alarm } : {}),
    });
  }

  private programMessage(): string {
    return encode(MachineProgramMessageSchema, { v: PROTOCOL_VERSION, program: this.arm.program });
  }

  private send(topic: string, payload: string, retain = false): void {
    this.client?.publish(topic, payload, { qos: 1, retain }, (error) => {
      if (error) this.logger.warn('Could not publish', { machine: this.id, topic, error: error.message });
    });
  }

  private onCommand(payload: Buffer): void {
    if (!this.client) return;
    const parsed = parseCommand(payload);
    if (parsed.kind === 'malformed') {
      this.logger.debug('Ignored a malformed command', { machine: this.id, reason: parsed.reason });
      return;
    }
    const envelope: CommandEnvelope = parsed.kind === 'known' ? parsed.command : parsed.envelope;
    // Before the clock: a repeat of a command acted on in time says so again, even once expired.
    const remembered = this.replies.get(envelope.id);
    if (remembered !== undefined) {
      this.logger.debug('Answered a repeated command again', { machine: this.id, command: envelope.id });
      this.send(envelope.replyTo, remembered);
      return;
    }
    const refusal = refusalByClock(envelope, this.wallClock());
    if (refusal) {
      this.logger.debug('Refused a command out of its time', {
        machine: this.id,
        command: envelope.id,
        ...refusal.error,
      });
      // Remembered, so that a redelivery the clock would now let through is refused again, not carried out.
      const reply = encode(ReplyMessageSchema, refusal);
      this.replies.remember(envelope.id, reply);
      this.send(envelope.replyTo, reply);
      return;
    }
    const reply = encode(
      ReplyMessageSchema,
      parsed.kind === 'known' ? this.carryOut(parsed.command) : unsupportedReply(envelope),
    );
    this.replies.remember(envelope.id, reply);
    this.answer(envelope, reply);
  }

  private carryOut(command: CommandMessage): ReplyMessage {
    switch (command.type) {
      case 'identify':
        return okReply(command.id, this.identity());
      case 'motion':
        this.catchUp();
        this.arm.move(command.motion);
        this.report();
        return okReply(command.id, { status: this.arm.status });
      case 'program':
        this.processProgram(command.program);
        return okReply(command.id, { accepted: true });
    }
  }

  private identity(): IdentityResult {
    const { name, lat, lng, armLength } = this.settings;
    return { ...(name ? { name } : {}), lat, lng, armLength, model: MODEL, firmware: FIRMWARE };
  }

  /** A newer upload replaces one still being processed. */
  private processProgram(upload: ProgramUpload): void {
    clearTimeout(this.programTimer);
    this.programTimer = setTimeout(() => {
      this.catchUp();
      this.arm.program = { name: upload.name, uploadedAt: this.wallClock(), programData: upload.programData };
      this.send(topics.program(this.id), this.programMessage(), true);
    }, this.settings.programProcessingMs);
  }

  private answer(envelope: CommandEnvelope, reply: string): void {
    const kind = this.misbehaviour.next();
    if (kind) this.logger.debug('Misbehaving in reply', { machine: this.id, command: envelope.id, kind });
    switch (kind) {
      case null:
        return this.send(envelope.replyTo, reply);
      case 'late': {
        const timer = setTimeout(
          () => {
            this.lateReplies.delete(timer);
            this.send(envelope.replyTo, reply);
          },
          // Past expiresAt by the tolerance too, by this clock: late by the server's, whatever this one's skew.
          envelope.expiresAt + COMMAND_CLOCK_TOLERANCE_MS + LATE_REPLY_MARGIN_MS - this.wallClock(),
        );
        this.lateReplies.add(timer);
        return;
      }
      case 'missing':
        return;
      case 'malformed':
        return this.send(envelope.replyTo, malformedReply(envelope.id, reply, this.random));
      case 'duplicate':
        this.send(envelope.replyTo, reply);
        return this.send(envelope.replyTo, reply);
    }
  }
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
