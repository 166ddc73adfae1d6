import { randomUUID } from 'node:crypto';
import net from 'node:net';
import {
  COMMAND_RESULT_SCHEMAS,
  CONTROLLERS_CHANGED_TOPIC,
  MACHINE_LIMITS,
  MAX_MESSAGE_BYTES,
  type CommandMessage,
  type CommandType,
  MachineProgramMessageSchema,
  PROTOCOL_VERSION,
  PresenceMessageSchema,
  type ReplyMessage,
  ReplyMessageSchema,
  SoilMessageSchema,
  TelemetryMessageSchema,
  WeatherMessageSchema,
  parseTopic,
  topicFilters,
  topics,
} from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { z } from 'zod';
import { type LatLng, distanceM } from '../geo/geo';
import type { ServerCredentials } from './broker-policy';
import { plainTelemetry } from './plain-telemetry';
import type { ReceiptJournal } from './receipt-journal';

/** What a machine answers when a command of this type succeeds. */
export type CommandResult<T extends CommandType> = z.infer<(typeof COMMAND_RESULT_SCHEMAS)[T]>;

/**
 * How a command ended: answered, refused by the machine, answered with garbage, not answered in
 * time, or not sent at all because the broker cannot be reached now.
 */
export type CommandOutcome<T extends CommandType> =
  | { kind: 'ok'; result: CommandResult<T> }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'malformed' }
  | { kind: 'timeout' }
  | { kind: 'broker_down' };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type CommandRequest = DistributiveOmit<CommandMessage, 'v' | 'id' | 'replyTo' | 'sentAt' | 'expiresAt'>;

/** What machines, stations and sensors report, by topic kind, already parsed with the protocol's schemas. */
export type MachineMessages = {
  telemetry: z.infer<typeof TelemetryMessageSchema>;
  presence: z.infer<typeof PresenceMessageSchema>;
  program: z.infer<typeof MachineProgramMessageSchema>;
  weather: z.infer<typeof WeatherMessageSchema>;
  soil: z.infer<typeof SoilMessageSchema>;
};
export type MachineMessageKind = keyof MachineMessages;
/** Where a message came from: the machine whose topic it is, and the device that measured it (the machine, or its station or sensor). */
export type MessageSource = { machineId: string; deviceId: string };
/**
 * Where messages of each kind are stored. The promise resolves once the message is stored (or
 * set aside as unstorable) and rejects when it could not be stored now (the database is away).
 */
export type MachineMessageHandlers = {
  [K in MachineMessageKind]: (source: MessageSource, message: MachineMessages[K]) => Promise<void>;
};

/** A message dropped before storage because it breaks the protocol, and why. */
export type RejectedMessage = MessageSource & {
  kind: MachineMessageKind;
  topic: string;
  payload: Buffer;
  /** A stable code: too_large, not_json, invalid, clock_ahead, too_old or beyond_arm. */
  reason: RejectionReason;
  /** What was wrong, for an administrator: the schema's complaints, or the timestamp. */
  detail: string;
};
/**
 * A machine's answer to a command this instance no longer waits for: it came after the timeout,
 * or after a restart (a kept session delivers what arrived meanwhile). Its command's record can
 * still learn the truth from it.
 */
export type LateReply = { machineId: string; id: string; reply: ReplyMessage | 'unreadable' };

export type RejectionReason = 'too_large' | 'not_json' | 'invalid' | 'clock_ahead' | 'too_old' | 'beyond_arm';

/** Where a machine's pivot stands and how long its arm is, as the machine told when it was added. */
export type MachineArm = { centre: LatLng; armLength: number };
/** The arms of the added machines; the sprinklers module keeps them. */
export type ArmDirectory = { armOf(machineId: string): MachineArm | undefined };

const MESSAGE_SCHEMAS = {
  telemetry: TelemetryMessageSchema,
  presence: PresenceMessageSchema,
  program: MachineProgramMessageSchema,
  weather: WeatherMessageSchema,
  soil: SoilMessageSchema,
} as const;

/** A machine's own report as it arrives, passed on for live updates to browsers. */
export type MachineEvent = {
  [K in 'telemetry' | 'presence' | 'program']: { kind: K; machineId: string; message: MachineMessages[K] };
}['telemetry' | 'presence' | 'program'];

type PendingCommand = {
  type: CommandType;
  machineId: string;
  settle: (outcome: CommandOutcome<CommandType>) => void;
};

export type MqttGatewayOptions = {
  url: string;
  /** The server's own broker account; an empty password leaves the account to the URL, if it names one. */
  credentials: ServerCredentials;
  /** This server instance's id: its MQTT client id and reply topic are named after it. */
  serverId: string;
  /**
   * With several server instances, each machine message must be stored once: they subscribe as
   * one shared-subscription group. Live updates still reach every instance on plain subscriptions.
   */
  sharedGroup: string | undefined;
  commandTimeoutMs: number;
  /**
   * How long the broker keeps the storing connection's session while this instance is away, in
   * seconds; 0: a clean session. With a session, reports published while the instance restarts
   * wait for it at the broker (docs/operations.md has the broker settings this needs).
   */
  sessionExpirySeconds: number;
  /**
   * Try MQTT 5 first (message expiry on commands, session expiry), and fall back to 3.1.1 when the
   * broker refuses it; false: 3.1.1 only (the embedded aedes broker speaks nothing newer).
   */
  tryMqtt5: boolean;
  /** Where messages are written before the broker hears they were received; see ReceiptJournal. */
  journal: ReceiptJournal | undefined;
  /**
   * Whether reports under a machine ID are taken: only registered controllers'. The broker
   * refuses others already; this also holds on a broker that the operator left open.
   */
  admits: (machineId: string) => boolean;
  logger: FastifyBaseLogger;
  /** Handlers known up front; modules add theirs with `handle` before `start`. */
  handlers?: Partial<MachineMessageHandlers>;
};

/**
 * The only code that speaks MQTT. It subscribes to what machines report, hands each parsed
 * message to the handler of its kind, passes machines' reports to every watcher, and sends
 * commands as request/response with a correlation id, waiting for the reply on this instance's
 * own reply topic.
 */
export class MqttGateway {
  private readonly pending = new Map<string, PendingCommand>();
  private readonly replyFilter: string;
  /** Messages dropped because no controller is registered under their machine ID, for health and the log. */
  private unadmitted = { count: 0, lastLoggedAt: 0 };
  private readonly handlers: Partial<MachineMessageHandlers>;
  private readonly watchers: ((event: MachineEvent) => void)[] = [];
  private readonly controllerWatchers: (() => void)[] = [];
  private readonly rejectionWatchers: ((rejected: RejectedMessage) => void)[] = [];
  private readonly lateReplyWatchers: ((late: LateReply) => void)[] = [];
  /** Ids of the latest commands answered in time, oldest first. */
  private readonly answered = new Set<string>();
  private arms: ArmDirectory | undefined;
  private listeningFrom: number | null = null;
  private client: MqttClient | undefined;
  /** With shared subscriptions, a second connection hears every machine for live updates. */
  private liveClient: MqttClient | undefined;

  constructor(private readonly options: MqttGatewayOptions) {
    this.replyFilter = topicFilters.replies(options.serverId);
    this.handlers = { ...options.handlers };
  }

  /** A gateway with its handlers, connected and subscribed. */
  static async connect(options: MqttGatewayOptions): Promise<MqttGateway> {
    const gateway = new MqttGateway(options);
    await gateway.start();
    return gateway;
  }

  /** Where messages of one kind go to be stored: once per message among the server instances. */
  handle<K extends MachineMessageKind>(kind: K, handler: MachineMessageHandlers[K]): void {
    if (this.client) throw new Error('message handlers are set before the gateway starts');
    (this.handlers as Record<K, MachineMessageHandlers[K]>)[kind] = handler;
  }

  /**
   * Where each added machine's arm is looked up: a report that reaches beyond it is set aside.
   * Until then, and for a machine not added yet, only the protocol's limits hold.
   */
  knowArms(directory: ArmDirectory): void {
    this.arms = directory;
  }

  /** Called for every machine report on every server instance, for live updates to browsers. */
  watch(listener: (event: MachineEvent) => void): void {
    this.watchers.push(listener);
  }

  /** Called when any server instance (this one included) registered or removed a controller. */
  watchControllers(listener: () => void): void {
    this.controllerWatchers.push(listener);
  }

  /** Called for every machine message dropped because it breaks the protocol, on the instance that would have stored it. */
  watchRejections(listener: (rejected: RejectedMessage) => void): void {
    this.rejectionWatchers.push(listener);
  }

  /** Called for every reply to a command this instance no longer waits for. */
  watchLateReplies(listener: (late: LateReply) => void): void {
    this.lateReplyWatchers.push(listener);
  }

  /**
   * Publishes a machine's retained presence as offline, for a controller the broker disconnected
   * on the server's behalf: Mosquitto publishes no last will for a client it kicks.
   */
  reportOffline(machineId: string): void {
    const offline = JSON.stringify({ v: PROTOCOL_VERSION, online: false, ts: Date.now() });
    this.client?.publish(topics.presence(machineId), offline, { qos: 1, retain: true }, (error) => {
      if (error) this.options.logger.warn({ err: error, machineId }, 'publishing a machine offline failed');
    });
  }

  /** Tells every server instance that the registered controllers changed. */
  announceControllersChanged(): void {
    this.client?.publish(CONTROLLERS_CHANGED_TOPIC, '{}', { qos: 1 }, (error) => {
      if (error) this.options.logger.warn({ err: error }, 'announcing a controller change failed');
    });
  }

  /**
   * Stores what a previous run of this instance received and never stored, then connects and
   * subscribes, and again after every reconnection. A broker that cannot be reached at start does
   * not stop the server: it keeps trying, and commands meanwhile are refused at once.
   */
  async start(): Promise<void> {
    const { options } = this;
    this.replayJournal();
    const ingest = (filter: string) => (options.sharedGroup ? `$share/${options.sharedGroup}/${filter}` : filter);
    // With a kept session the broker sends what waited for this instance right after it connects:
    // the listeners are there before the connection is.
    const announceFromMain = !options.sharedGroup;
    const main = connectClient(
      options,
      `${options.credentials.username}-${options.serverId}`,
      {
        [this.replyFilter]: { qos: 1 },
        [CONTROLLERS_CHANGED_TOPIC]: { qos: 1 },
        ...Object.fromEntries(REPORT_FILTERS.map((filter) => [ingest(filter), { qos: 1 as const }])),
      },
      options.sessionExpirySeconds,
      (topic, payload) => this.receive(topic, payload, { store: true, announce: announceFromMain }),
      options.journal,
    );
    const live = options.sharedGroup
      ? connectClient(
          options,
          `${options.credentials.username}-${options.serverId}-live`,
          {
            [topicFilters.telemetry]: { qos: 0 },
            [topicFilters.presence]: { qos: 0 },
            [topicFilters.program]: { qos: 0 },
          },
          0,
          (topic, payload) => this.receive(topic, payload, { store: false, announce: true }),
          undefined,
        )
      : undefined;
    // Side by side: start-up waits for the broker once, not once per connection.
    [this.client, this.liveClient] = await Promise.all([main, live]);
    this.listeningFrom = Date.now();
    this.client.on('connect', () => (this.listeningFrom = Date.now()));
    this.client.on('close', () => (this.listeningFrom = null));
  }

  /**
   * Since when this instance has heard the machines without a break (its connection to the
   * broker); null while it does not. A machine's silence means something only while it listens.
   */
  get listeningSince(): number | null {
    return this.listeningFrom;
  }

  /** The MQTT version spoken with the broker now: 5, or 4 for 3.1.1. */
  get protocolVersion(): 4 | 5 {
    return this.client?.options.protocolVersion === 5 ? 5 : 4;
  }

  /**
   * Sends a command and waits for its reply until the timeout. The outcome is never an
   * exception: a machine that does not answer is an ordinary outcome the caller must report.
   */
  async command<T extends CommandType>(
    machineId: string,
    request: CommandRequest & { type: T },
    /** The command's correlation id; the caller's record of the command may name it first. */
    id: string = randomUUID(),
  ): Promise<CommandOutcome<T>> {
    // No registered controller can connect under this ID, so none can answer: nothing is sent.
    if (!this.options.admits(machineId)) return { kind: 'timeout' };
    // Nor is anything queued while the broker is away, to run when it is back and nobody waits.
    const { client } = this;
    if (!client?.connected) return { kind: 'broker_down' };
    const message = {
      ...request,
      v: PROTOCOL_VERSION,
      id,
      replyTo: topics.replies(this.options.serverId, machineId),
      sentAt: Date.now(),
      expiresAt: Date.now() + this.options.commandTimeoutMs,
    };
    const outcome = new Promise<CommandOutcome<T>>((resolve) => {
      const timer = setTimeout(() => settle({ kind: 'timeout' }), this.options.commandTimeoutMs);
      const settle = (result: CommandOutcome<CommandType>) => {
        clearTimeout(timer);
        this.pending.delete(id);
        if (result.kind !== 'timeout') this.rememberAnswered(id);
        resolve(result as CommandOutcome<T>);
      };
      this.pending.set(id, { type: request.type, machineId, settle });
    });
    // On MQTT 5 the broker itself drops a command nobody waits for any more, such as one queued
    // for a machine that reconnects later; on 3.1.1 the machine's clock rule alone stops it.
    const expiry = { messageExpiryInterval: Math.ceil(this.options.commandTimeoutMs / 1000) };
    const publishOptions = this.protocolVersion === 5 ? { qos: 1 as const, properties: expiry } : { qos: 1 as const };
    client.publish(topics.commands(machineId), JSON.stringify(message), publishOptions, (error) => {
      if (error) this.options.logger.warn({ err: error, machineId }, 'publishing a command failed');
    });
    return outcome;
  }

  /** How many messages were dropped since start because no controller is registered under their machine ID. */
  get unadmittedCount(): number {
    return this.unadmitted.count;
  }

  /** Whether the broker is reachable now. */
  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  async close(): Promise<void> {
    for (const pending of this.pending.values()) pending.settle({ kind: 'timeout' });
    // With the broker away nothing in flight can finish: waiting for it would hang the shutdown.
    const end = (client: MqttClient | undefined) => client?.endAsync(!client.connected);
    // Ending a socket sends what it holds back: the journal's records of those messages go first.
    this.options.journal?.release();
    await Promise.all([end(this.client), end(this.liveClient)]);
    this.options.journal?.close();
  }

  /**
   * Hands the previous run's unstored messages to their handlers, journalled anew as received
   * now, before anything new arrives. Storing is idempotent (a report's identity is its machine
   * and ts), so a message stored just before the kill that left it here is not stored twice.
   */
  private replayJournal(): void {
    const journal = this.options.journal;
    if (!journal) return;
    const leftovers = journal.leftovers();
    for (const { topic, payload } of leftovers) this.receive(topic, payload, { store: true, announce: false });
    journal.discardLeftovers();
    if (leftovers.length > 0) {
      this.options.logger.info({ messages: leftovers.length }, 'stored the messages received before a stop');
    }
  }

  /** `store`: hand the message to its handler; `announce`: pass it on as a live event. */
  private receive(topic: string, payload: Buffer, use: { store: boolean; announce: boolean }): void {
    if (topic === CONTROLLERS_CHANGED_TOPIC) {
      for (const listener of this.controllerWatchers) listener();
      return;
    }
    const parsedTopic = parseTopic(topic);
    if (!parsedTopic || parsedTopic.kind === 'commands') return;
    if (parsedTopic.kind === 'reply') {
      if (parsedTopic.deviceId === this.options.serverId) this.receiveReply(parsedTopic.machineId, payload);
      return;
    }
    const { kind, machineId, deviceId } = parsedTopic;
    const journal = use.store ? this.options.journal : undefined;
    if (journal && payload.length > 0) {
      // Written before the broker is told it arrived: now, or with the others of its read (writeOncePerRead).
      const receipt = journal.append({ topic, payload });
      this.receiveReport(kind, { machineId, deviceId }, topic, payload, use)
        .then(
          () => journal.settle(receipt),
          // Not stored now (the database is away): kept for the next start.
          () => undefined,
        )
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'the receipt journal failed'));
      return;
    }
    // A failure to store was logged where it happened.
    this.receiveReport(kind, { machineId, deviceId }, topic, payload, use).catch(() => undefined);
  }

  /** Resolves once the report is stored or has nothing to store; rejects if storing failed. */
  private receiveReport(
    kind: MachineMessageKind,
    { machineId, deviceId }: MessageSource,
    topic: string,
    payload: Buffer,
    use: { store: boolean; announce: boolean },
  ): Promise<void> {
    if (!this.options.admits(machineId)) {
      if (use.store) this.dropUnadmitted(machineId);
      return NOTHING_TO_STORE;
    }
    // An empty retained payload clears a topic; there is nothing to report.
    if (payload.length === 0) return NOTHING_TO_STORE;
    const parsed = parseMessage(kind, payload, Date.now(), this.arms?.armOf(machineId));
    if (!parsed.ok) {
      if (use.store) this.reject({ machineId, deviceId, kind, topic, payload, ...parsed });
      return NOTHING_TO_STORE;
    }
    let stored = NOTHING_TO_STORE;
    try {
      if (use.store) stored = this.store(kind, { machineId, deviceId }, parsed.message, topic);
      if (use.announce && (kind === 'telemetry' || kind === 'presence' || kind === 'program')) {
        const event = { kind, machineId, message: parsed.message } as MachineEvent;
        for (const watcher of this.watchers) watcher(event);
      }
    } catch (error) {
      this.options.logger.error({ err: error, topic }, 'handling a machine message failed');
    }
    return stored;
  }

  private store(kind: MachineMessageKind, source: MessageSource, message: unknown, topic: string): Promise<void> {
    const handler = this.handlers[kind] as ((source: MessageSource, message: unknown) => Promise<void>) | undefined;
    if (!handler) return NOTHING_TO_STORE;
    return handler(source, message).catch((error: unknown) => {
      this.options.logger.error({ err: error, topic }, 'storing a machine message failed');
      throw error;
    });
  }

  private reject(rejected: RejectedMessage): void {
    this.options.logger.debug(
      { topic: rejected.topic, reason: rejected.reason },
      'dropped a message that does not follow the protocol',
    );
    for (const watcher of this.rejectionWatchers) watcher(rejected);
  }

  /** Counted always, logged at most once a minute: an unknown controller must not flood the log. */
  private dropUnadmitted(machineId: string): void {
    this.unadmitted.count += 1;
    const now = Date.now();
    if (now - this.unadmitted.lastLoggedAt < UNADMITTED_LOG_INTERVAL_MS) return;
    this.unadmitted.lastLoggedAt = now;
    this.options.logger.warn(
      { machineId, droppedSinceStart: this.unadmitted.count },
      'dropped messages from a machine ID with no registered controller',
    );
  }

  private rememberAnswered(id: string): void {
    this.answered.add(id);
    if (this.answered.size > ANSWERED_REMEMBERED) this.answered.delete(this.answered.values().next().value!);
  }

  /** A reply counts only from the machine the command went to: the topic names who answers. */
  private receiveReply(machineId: string, payload: Buffer): void {
    const body = parseJson(payload);
    const id = typeof body === 'object' && body !== null && 'id' in body ? String(body.id) : salvageId(payload);
    if (id === undefined) return;
    const reply = ReplyMessageSchema.safeParse(body);
    const pending = this.pending.get(id);
    // A second copy of an answer already taken (QoS 1 delivers at least once) tells nothing new.
    if (!pending && this.answered.has(id)) return;
    if (!pending) {
      const late = { machineId, id, reply: reply.success ? reply.data : ('unreadable' as const) };
      for (const watcher of this.lateReplyWatchers) watcher(late);
      return;
    }
    if (pending.machineId !== machineId) return;
    if (!reply.success) {
      pending.settle({ kind: 'malformed' });
      return;
    }
    if (!reply.data.ok) {
      pending.settle({ kind: 'refused', code: reply.data.error.code, message: reply.data.error.message });
      return;
    }
    const result = COMMAND_RESULT_SCHEMAS[pending.type].safeParse(reply.data.result);
    pending.settle(result.success ? { kind: 'ok', result: result.data } : { kind: 'malformed' });
  }
}

type ParsedMessage =
  { ok: true; message: MachineMessages[MachineMessageKind] } | { ok: false; reason: RejectionReason; detail: string };

/**
 * A message as the protocol allows it, or why not. One larger than any real message is not even
 * read. A report from a clock far ahead would win over every later one (the newest `ts` is the
 * state); one older than the backfill window is no delayed upload. Presence is exempt from the
 * latter: the retained "online" of a machine connected for weeks carries the moment it connected.
 * A report of an added machine may not reach beyond its arm.
 */
function parseMessage(
  kind: MachineMessageKind,
  payload: Buffer,
  now: number,
  arm: MachineArm | undefined,
): ParsedMessage {
  if (payload.length > MAX_MESSAGE_BYTES) {
    return { ok: false, reason: 'too_large', detail: `${payload.length} bytes; at most ${MAX_MESSAGE_BYTES}` };
  }
  const json = parseJson(payload);
  if (json === undefined) return { ok: false, reason: 'not_json', detail: 'not a JSON document' };
  const checked = checkSchema(kind, json);
  if (!checked.ok) return checked;
  const message = checked.message;
  const ts = 'ts' in message ? message.ts : undefined;
  if (ts !== undefined && ts > now + MACHINE_LIMITS.clockSkewMs) {
    return { ok: false, reason: 'clock_ahead', detail: `ts ${new Date(ts).toISOString()} is ahead of the server` };
  }
  if (ts !== undefined && kind !== 'presence' && ts < now - MACHINE_LIMITS.backfillMs) {
    return {
      ok: false,
      reason: 'too_old',
      detail: `ts ${new Date(ts).toISOString()} is older than the backfill window`,
    };
  }
  const beyond = kind === 'telemetry' && arm ? beyondArm(message as MachineMessages['telemetry'], arm) : undefined;
  if (beyond) return { ok: false, reason: 'beyond_arm', detail: beyond };
  return { ok: true, message };
}

/** The message as its kind's schema takes it, or the schema's complaints; a plainly valid report skips the schema. */
function checkSchema(kind: MachineMessageKind, json: unknown): ParsedMessage {
  const plain = kind === 'telemetry' ? plainTelemetry(json) : undefined;
  if (plain) return { ok: true, message: plain };
  const parsed = MESSAGE_SCHEMAS[kind].safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`);
  return { ok: false, reason: 'invalid', detail: detail.join('; ') };
}

/**
 * What in the report reaches further than the machine's arm and an end gun's throw: its
 * `distance`, or a GPS point of its arm. Either would draw the arm, and count its water, where
 * the machine cannot be.
 */
function beyondArm(report: MachineMessages['telemetry'], arm: MachineArm): string | undefined {
  const reach = arm.armLength + MACHINE_LIMITS.endGunMarginM;
  const limit = `the machine's arm is ${arm.armLength} m, and an end gun may add ${MACHINE_LIMITS.endGunMarginM} m`;
  if (report.distance > reach) return `distance ${report.distance} m is beyond its reach: ${limit}`;
  for (const [lng, lat] of report.position?.coordinates ?? []) {
    const fromCentre = distanceM(arm.centre, { lat, lng });
    if (fromCentre > reach) {
      return `position [${lng}, ${lat}] is ${Math.round(fromCentre)} m from the pivot, beyond its reach: ${limit}`;
    }
  }
  return undefined;
}

const REPORT_FILTERS = [
  topicFilters.presence,
  topicFilters.telemetry,
  topicFilters.program,
  topicFilters.weather,
  topicFilters.soil,
];
const UNADMITTED_LOG_INTERVAL_MS = 60_000;
const NOTHING_TO_STORE = Promise.resolve();
/** Far more commands than are answered within the time a duplicate reply may trail its first copy. */
const ANSWERED_REMEMBERED = 10_000;

/** How long start-up waits for the broker before going on without it. */
const FIRST_CONNECT_WAIT_MS = 5000;

async function connectClient(
  options: MqttGatewayOptions,
  clientId: string,
  subscriptions: Record<string, { qos: 0 | 1 }>,
  sessionExpirySeconds: number,
  onMessage: (topic: string, payload: Buffer) => void,
  /** Where the messages of this connection are journalled before they are acknowledged. */
  journal: ReceiptJournal | undefined,
): Promise<MqttClient> {
  const { username, password } = options.credentials;
  const client = mqtt.connect(options.url, {
    clientId,
    ...(password ? { username, password } : {}),
    ...(options.tryMqtt5
      ? { protocolVersion: 5, properties: { sessionExpiryInterval: sessionExpirySeconds } }
      : { protocolVersion: 4 }),
    // A kept session holds this instance's subscriptions and what arrives for them while it is away.
    clean: sessionExpirySeconds === 0,
    // Soon after a broker restart: a broker that forgot shared subscriptions (Mosquitto 2.0) takes
    // reports for nobody until the server subscribes again (docs/operations.md).
    reconnectPeriod: 250,
    connectTimeout: 10_000,
    // Subscribing on every connection, below, covers a broker that forgot them (a restart).
    resubscribe: false,
  });
  client.on('message', onMessage);
  client.on('error', (error) => {
    if (client.options.protocolVersion !== 5 || !refusesMqtt5(error)) return;
    // The next attempt, a second later, speaks 3.1.1; its session lasts until the broker's own
    // expiry (Mosquitto's persistent_client_expiration), as 3.1.1 cannot say how long.
    client.options.protocolVersion = 4;
    delete client.options.properties;
    options.logger.info({ clientId }, 'the MQTT broker speaks 3.1.1 only: no message expiry on commands');
    // A refused connection is not retried by itself; this one asks again, in words the broker knows.
    setTimeout(() => client.reconnect(), 0);
  });
  // An outage is logged once when it starts and once when it ends, not at every retry.
  let outage = false;
  const reportOutage = (error?: Error) => {
    if (outage) return;
    outage = true;
    options.logger.warn({ err: error, clientId, url: redactUrl(options.url) }, 'MQTT broker unreachable; reconnecting');
  };
  client.on('error', reportOutage);
  client.on('offline', () => reportOutage());
  client.on('connect', () => {
    if (outage) options.logger.info({ clientId }, 'MQTT broker reachable again');
    outage = false;
    if (client.stream instanceof net.Socket) {
      // A command is a small packet sent right after others (acknowledgements): with Nagle's
      // algorithm it would wait for the broker's delayed acknowledgement, about 40 ms.
      client.stream.setNoDelay(true);
      writeOncePerRead(client.stream, journal);
    }
  });
  const subscribed = new Promise<boolean>((resolve) => {
    client.on('connect', () => {
      client.subscribe(subscriptions, (error) => {
        if (error) options.logger.error({ err: error, clientId }, 'MQTT subscription failed');
        resolve(!error);
      });
    });
  });
  const ready = await Promise.race([
    subscribed,
    new Promise<false>((resolve) => setTimeout(() => resolve(false), FIRST_CONNECT_WAIT_MS).unref()),
  ]);
  if (!ready)
    options.logger.error(
      { url: redactUrl(options.url) },
      'MQTT broker not reachable yet; machines are offline until it is',
    );
  return client;
}

/**
 * The client acknowledges every QoS 1 message as soon as it is handled, and writes each
 * acknowledgement to the socket by itself: a system call per message, a sixth of the server's
 * time under a flood, and the journal wrote each message's record likewise. Holding the socket's
 * writes and the journal while what one read brought is handled sends the acknowledgements of
 * all its messages in one write, within the same turn of the event loop, right after the
 * journal's records of them, also in one write.
 */
function writeOncePerRead(socket: net.Socket, journal: ReceiptJournal | undefined): void {
  let holding = false;
  socket.prependListener('data', () => {
    if (holding) return;
    holding = true;
    journal?.hold();
    socket.cork();
    setImmediate(() => {
      holding = false;
      // Written before any of their acknowledgements leaves.
      journal?.release();
      socket.uncork();
    });
  });
}

/** CONNACK "unacceptable protocol version" (3.1.1: 1) or "unsupported protocol version" (5: 132). */
function refusesMqtt5(error: Error): boolean {
  const code = (error as Error & { code?: unknown }).code;
  return code === 1 || code === 132;
}

/** A broker address safe to log: without its password. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = parsed.password ? '***' : '';
    return parsed.toString();
  } catch {
    return 'an invalid MQTT_URL';
  }
}

/** The correlation id of a reply that is not valid JSON, so that it still ends its command as unreadable. */
function salvageId(payload: Buffer): string | undefined {
  return /"id"\s*:\s*"([^"]{1,64})"/.exec(payload.toString('utf8'))?.[1];
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
