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
import { type Sweep, designFlow } from './irrigation';
import { type Logger, silentLogger } from './logger';
import { Misbehaviour, type MisbehaviourKind, type MisbehaviourShares, malformedReply } from './misbehaviour';
import { encode, waitForConnection } from './mqtt-connection';
import { type CurrentProgram, MAX_PRESSURE_SAFETY_DELAY_MS, PivotArm } from './pivot-arm';
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
  /** Nominal flow while watering, m³/h; by default what its arm is built for (designFlow: 180 for 420 m). */
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
  /**
   * How long the arm runs on low pressure, its water cut (cutWater), before its low-pressure
   * safety stops it with a pressure-loss alarm: ms of simulated time, so timeScale shortens it in
   * real time; 30 s by default.
   */
  pressureSafetyDelayMs?: number;
  /** Telemetry interval while moving, ms; 5 s by default. */
  movingTelemetryMs?: number;
  /** Telemetry interval at rest, ms; 60 s by default. */
  restingTelemetryMs?: number;
  /** How long processing an uploaded program takes, ms; 2 s by default. */
  programProcessingMs?: number;
  /** The MQTT keepalive, s: a client silent this long pings the broker; 60 by default. */
  keepaliveSeconds?: number;
  /**
   * Connects, announces itself online with its program and answers commands, but reports nothing
   * (telemetry, its stations' and probes' readings) until startReporting: a bench adding a large
   * fleet holds the fleet's reports until every machine is added. False by default.
   */
  holdReports?: boolean;
  misbehaviour?: MisbehaviourShares;
  seed?: number;
  logger?: Logger;
  /** Told of every stretch the arm waters, so soil sensors under it get wet. */
  onSweep?: (sweep: Sweep) => void;
  /**
   * Told the `ts` of each telemetry report the broker acknowledged (floods not counted): the
   * report's identity on the server, so a benchmark can look for each one it was promised.
   */
  onReportAcknowledged?: (ts: number) => void;
};

/** A weather station or soil probe wired to a controller: it publishes through the controller's connection. */
export type Peripheral = {
  /** `phase`: how far into its interval its first reading falls, 0–1; 0, at once, when not given. */
  start(client: MqttClient, phase?: number): void;
  stop(): void;
};

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
  /** Its water supply is cut (cutWater). */
  waterCut: boolean;
  /** Its controller is frozen (freeze): connected, but silent and deaf to commands. */
  frozen: boolean;
  /** It dropped off (dropOff) and stays away until comeBack. */
  away: boolean;
};

const MACHINE_DEFAULTS = {
  topSpeed: 3,
  pressure: 2.5,
  angle: 0,
  motion: 'stop' as Motion,
  timeScale: 1,
  clockOffsetMs: 0,
  alarmChancePerHour: 0,
  pressureSafetyDelayMs: 30_000,
  movingTelemetryMs: 5000,
  restingTelemetryMs: 60_000,
  programProcessingMs: 2000,
  keepaliveSeconds: 60,
  holdReports: false,
  seed: 1,
} satisfies Partial<PivotMachineOptions>;
type MachineSettings = PivotMachineOptions & typeof MACHINE_DEFAULTS & { flow: number };

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
  assertInRange('The pressure safety delay', settings.pressureSafetyDelayMs, 0, MAX_PRESSURE_SAFETY_DELAY_MS);
  assertInRange('The keepalive', settings.keepaliveSeconds, 1, 65_535);
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
  /** Wakes the machine when its low-pressure safety is due to stop it, so the alarm is reported at once. */
  private safetyTimer: NodeJS.Timeout | undefined;
  private programTimer: NodeJS.Timeout | undefined;
  /** The controller hangs with its connection open: it publishes nothing and ignores commands. */
  private frozen = false;
  /** The connection came back while frozen: the controller announces itself once it thaws. */
  private announceWhenThawed = false;
  /** Dropped off (dropOff) and waiting to be told to come back. */
  private away = false;
  /** Built with holdReports and not told to report yet. */
  private holding: boolean;
  private lastAdvance: number;
  private readonly settings: MachineSettings;
  /** Telemetry reports the broker acknowledged (flooded ones apart), for a benchmark's count of what was sent. */
  private reportsAcknowledged = 0;

  constructor(options: PivotMachineOptions) {
    this.settings = withDefaults(options, { ...MACHINE_DEFAULTS, flow: designFlow(options.armLength) });
    assertMachineSettings(this.settings);
    const { id, lat, lng, seed } = this.settings;
    this.id = id;
    this.wallClock = offsetClock(this.settings.clockOffsetMs);
    this.clock = new UniqueClock(this.wallClock);
    this.lastAdvance = this.wallClock();
    this.logger = this.settings.logger ?? silentLogger;
    this.holding = this.settings.holdReports;
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
    await this.open({ armRanMeanwhile: false });
  }

  /**
   * Connects, announces itself and starts its peripherals. The arm runs on from where it was,
   * through the time it was away, when armRanMeanwhile; otherwise from now.
   */
  private async open({ armRanMeanwhile }: { armRanMeanwhile: boolean }): Promise<void> {
    const presence = topics.presence(this.id);
    const client = connect(this.settings.brokerUrl, {
      clientId: this.id,
      ...(this.settings.secret === undefined ? {} : { username: this.id, password: this.settings.secret }),
      clean: false,
      keepalive: this.settings.keepaliveSeconds,
      reconnectPeriod: RECONNECT_PERIOD_MS,
      will: { topic: presence, payload: OFFLINE, qos: 1, retain: true },
    });
    this.client = client;
    client.on('message', (_topic, payload) => this.onCommand(client, payload));
    client.on('error', (error) => this.logger.debug('MQTT error', { machine: this.id, error: error.message }));
    try {
      await waitForConnection(client, this.settings.brokerUrl);
    } catch (error) {
      this.client = null;
      await client.endAsync(true);
      throw error;
    }
    this.away = false;
    if (armRanMeanwhile) this.catchUp();
    else this.lastAdvance = this.wallClock();
    await this.announce(client);
    if (!this.holding) for (const peripheral of this.peripherals) peripheral.start(client);
    client.on('connect', () => {
      if (this.frozen) {
        this.announceWhenThawed = true;
        return;
      }
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
    if (this.client && !this.holding) peripheral.start(this.client);
  }

  /**
   * Starts the reports held (holdReports): its telemetry and its stations' and probes' readings,
   * each first at a random point of its interval, so that machines told together report as a
   * fleet long at work does, spread over their intervals rather than in one burst. Nothing
   * unless held.
   */
  startReporting(): void {
    if (!this.holding) return;
    this.holding = false;
    const client = this.client;
    // Not connected yet (or away), it reports as it connects; frozen, as it thaws.
    if (!client || this.frozen) return;
    for (const peripheral of this.peripherals) peripheral.start(client, this.random.next());
    this.telemetryTimer = setTimeout(() => {
      this.catchUp();
      this.report();
    }, this.random.next() * this.telemetryInterval());
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

  /**
   * The water supply fails (a pump trips, a valve closes, a main bursts). The arm keeps moving and
   * reporting its status, but where it should water it shows no flow and about 0.2 bar, and waters
   * nothing; after pressureSafetyDelayMs of simulated time so, its low-pressure safety stops it
   * with status `alarm`, `alarm: "pressure_loss"`. Reported at once. Nothing if already cut.
   */
  cutWater(): void {
    if (this.arm.waterCut) return;
    this.catchUp();
    this.arm.cutWater();
    this.logger.debug('Water cut', { machine: this.id });
    this.report();
  }

  /**
   * The water supply is back: a moving arm has its pressure and flow again. A machine its safety
   * stopped stays in alarm until a motion command starts (or stops) it, as a real pivot waits for
   * its operator. Reported at once.
   */
  restoreWater(): void {
    if (!this.arm.waterCut) return;
    this.catchUp();
    this.arm.restoreWater();
    this.logger.debug('Water restored', { machine: this.id });
    this.report();
  }

  /**
   * Stops the arm with no command and no alarm, as a tripped tower safety (a misaligned tower, a
   * stuck wheel) does in the middle of a program: status `stop`, reported at once. Nothing if the
   * arm is not moving. Returns whether it stopped.
   */
  stopUnexpectedly(): boolean {
    this.catchUp();
    if (!this.arm.isMoving) return false;
    this.arm.move('stop');
    this.logger.debug('Stopped unexpectedly', { machine: this.id });
    this.report();
    return true;
  }

  /**
   * The controller hangs with its MQTT connection open: it publishes nothing (telemetry, replies,
   * programs, its stations and probes) and leaves commands unanswered and undone, while the MQTT
   * client goes on answering keepalive pings, so the broker keeps it connected and never publishes
   * the last will. Commands that arrive meanwhile are lost, as is an upload being processed. The arm
   * runs on as the relays hold it. Nothing if already frozen.
   */
  freeze(): void {
    if (this.frozen) return;
    if (!this.client) {
      throw new Error(`Machine ${this.id} is not connected, so it cannot freeze with its connection open`);
    }
    this.pause();
    this.frozen = true;
    this.logger.debug('Frozen', { machine: this.id });
  }

  /** The controller comes back to life: it reports at once, and again at its intervals, and answers commands. */
  unfreeze(): void {
    const client = this.client;
    if (!this.frozen || !client) return;
    this.frozen = false;
    this.catchUp();
    this.logger.debug('Unfrozen', { machine: this.id });
    if (!this.holding) for (const peripheral of this.peripherals) peripheral.start(client);
    if (!this.announceWhenThawed) return this.report();
    this.announceWhenThawed = false;
    this.announce(client).catch((error: unknown) =>
      this.logger.warn('Could not announce after thawing', { machine: this.id, error: String(error) }),
    );
  }

  /**
   * Loses its connection without a DISCONNECT (the socket is destroyed, as when a cellular link
   * fails), so the broker publishes the last will `{"v":1,"online":false}`. It stays away, the arm
   * running on, until comeBack. Ends a freeze. Nothing if already away.
   */
  async dropOff(): Promise<void> {
    if (this.away) return;
    const client = this.halt();
    if (!client) throw new Error(`Machine ${this.id} is not connected`);
    this.away = true;
    this.logger.debug('Dropped off', { machine: this.id });
    await client.endAsync(true);
  }

  /**
   * Reconnects after dropOff and announces itself as on every connect: presence online, its
   * program, telemetry with the arm where it got to meanwhile. Commands kept in its persistent
   * session are delivered then, and refused as expired if their time has passed. Nothing unless away.
   */
  async comeBack(): Promise<void> {
    if (!this.away) return;
    this.logger.debug('Coming back', { machine: this.id });
    await this.open({ armRanMeanwhile: true });
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
      watering: this.arm.isMoving && plan.watering && !this.arm.waterCut,
      sector: plan.sector,
      program: this.arm.program,
      waterCut: this.arm.waterCut,
      frozen: this.frozen,
      away: this.away,
    };
  }

  /** How many of its telemetry reports the broker has acknowledged since it was built (floods not counted). */
  get telemetryAcknowledged(): number {
    return this.reportsAcknowledged;
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
          client.publish(topic, this.telemetry(this.clock.now()), { qos: 1 }, (error) => {
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

  /** Stops everything the controller does by itself: reports, peripherals, pending uploads and late replies. */
  private pause(): void {
    for (const peripheral of this.peripherals) peripheral.stop();
    clearTimeout(this.telemetryTimer);
    clearTimeout(this.safetyTimer);
    clearTimeout(this.programTimer);
    for (const timer of this.lateReplies) clearTimeout(timer);
    this.lateReplies.clear();
  }

  /** Pauses the machine and lets go of its connection, which the caller closes. */
  private halt(): MqttClient | null {
    this.pause();
    this.frozen = false;
    this.announceWhenThawed = false;
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

  /**
   * Brings the arm up to now and hands on what it watered meanwhile. A machine that is not running
   * (not started yet, stopped or crashed) stands still; one frozen or dropped off runs on.
   */
  private catchUp(): void {
    const now = this.wallClock();
    if (!this.client && !this.away) {
      this.lastAdvance = now;
      return;
    }
    const sweeps = this.arm.advance(now - this.lastAdvance);
    this.lastAdvance = now;
    if (this.settings.onSweep) for (const sweep of sweeps) this.settings.onSweep(sweep);
  }

  /** Publishes telemetry now and schedules the next report at the interval for the status. */
  private report(): void {
    clearTimeout(this.telemetryTimer);
    if (!this.client || this.frozen || this.holding) return;
    const ts = this.clock.now();
    this.send(topics.telemetry(this.id), this.telemetry(ts), false, () => {
      this.reportsAcknowledged += 1;
      this.settings.onReportAcknowledged?.(ts);
    });
    this.telemetryTimer = setTimeout(() => {
      this.catchUp();
      this.report();
    }, this.telemetryInterval());
    this.watchPressure();
  }

  private telemetryInterval(): number {
    return this.arm.isMoving ? this.settings.movingTelemetryMs : this.settings.restingTelemetryMs;
  }

  /** With the water cut, wakes when the low-pressure safety is due, to report its alarm at once. */
  private watchPressure(): void {
    clearTimeout(this.safetyTimer);
    const untilSafety = this.arm.msUntilPressureSafety();
    if (untilSafety === null) return;
    const delay = Math.max(0, untilSafety - (this.wallClock() - this.lastAdvance));
    this.safetyTimer = setTimeout(() => {
      this.catchUp();
      // Still moving: the delay is not over, as the arm crossed ground it does not water; look again.
      if (this.arm.isMoving) this.watchPressure();
      else this.report();
    }, delay);
  }

  private telemetry(ts: number): string {
    return encode(TelemetryMessageSchema, { v: PROTOCOL_VERSION, ts, ...this.arm.report() });
  }

  private programMessage(): string {
    return encode(MachineProgramMessageSchema, { v: PROTOCOL_VERSION, program: this.arm.program });
  }

  private send(topic: string, payload: string, retain = false, acknowledged?: () => void): void {
    if (this.frozen) return;
    this.client?.publish(topic, payload, { qos: 1, retain }, (error) => {
      if (error) this.logger.warn('Could not publish', { machine: this.id, topic, error: error.message });
      else acknowledged?.();
    });
  }

  private onCommand(client: MqttClient, payload: Buffer): void {
    if (client !== this.client) return;
    if (this.frozen) {
      this.logger.debug('Frozen: a command went unanswered', { machine: this.id });
      return;
    }
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
