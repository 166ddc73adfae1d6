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
import type { ServerCredentials } from './broker-policy';

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
export type CommandRequest = DistributiveOmit<CommandMessage, 'v' | 'id' | 'replyTo' | 'expiresAt'>;

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
export type MachineMessageHandlers = {
  [K in MachineMessageKind]: (source: MessageSource, message: MachineMessages[K]) => void;
};

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

  /** Called for every machine report on every server instance, for live updates to browsers. */
  watch(listener: (event: MachineEvent) => void): void {
    this.watchers.push(listener);
  }

  /** Called when any server instance (this one included) registered or removed a controller. */
  watchControllers(listener: () => void): void {
    this.controllerWatchers.push(listener);
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
   * Connects and subscribes, and again after every reconnection. A broker that cannot be reached
   * at start does not stop the server: it keeps trying, and commands meanwhile end unanswered.
   */
  async start(): Promise<void> {
    const { options } = this;
    const ingest = (filter: string) => (options.sharedGroup ? `$share/${options.sharedGroup}/${filter}` : filter);
    this.client = await connectClient(options, `${options.credentials.username}-${options.serverId}`, {
      [this.replyFilter]: { qos: 1 },
      [CONTROLLERS_CHANGED_TOPIC]: { qos: 1 },
      ...Object.fromEntries(REPORT_FILTERS.map((filter) => [ingest(filter), { qos: 1 as const }])),
    });
    this.liveClient = options.sharedGroup
      ? await connectClient(options, `${options.credentials.username}-${options.serverId}-live`, {
          [topicFilters.telemetry]: { qos: 0 },
          [topicFilters.presence]: { qos: 0 },
          [topicFilters.program]: { qos: 0 },
        })
      : undefined;
    const announceFromMain = !this.liveClient;
    this.client.on('message', (topic, payload) =>
      this.receive(topic, payload, { store: true, announce: announceFromMain }),
    );
    this.liveClient?.on('message', (topic, payload) => this.receive(topic, payload, { store: false, announce: true }));
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
      expiresAt: Date.now() + this.options.commandTimeoutMs,
    };
    const outcome = new Promise<CommandOutcome<T>>((resolve) => {
      const timer = setTimeout(() => settle({ kind: 'timeout' }), this.options.commandTimeoutMs);
      const settle = (result: CommandOutcome<CommandType>) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(result as CommandOutcome<T>);
      };
      this.pending.set(id, { type: request.type, machineId, settle });
    });
    client.publish(topics.commands(machineId), JSON.stringify(message), { qos: 1 }, (error) => {
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
    await Promise.all([this.client?.endAsync(), this.liveClient?.endAsync()]);
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
    if (!this.options.admits(machineId)) {
      if (use.store) this.dropUnadmitted(machineId);
      return;
    }
    // An empty retained payload clears a topic; there is nothing to report. Nor is there in
    // one larger than any real message, which is not even read.
    if (payload.length === 0) return;
    if (payload.length > MAX_MESSAGE_BYTES) {
      this.options.logger.debug({ topic, bytes: payload.length }, 'dropped a message larger than the protocol allows');
      return;
    }
    const parsed = MESSAGE_SCHEMAS[kind].safeParse(parseJson(payload));
    if (!parsed.success || outsideClockWindow(kind, parsed.data, Date.now())) {
      this.options.logger.debug({ topic }, 'dropped a message that does not follow the protocol');
      return;
    }
    try {
      const handler = this.handlers[kind] as ((source: MessageSource, message: unknown) => void) | undefined;
      if (use.store) handler?.({ machineId, deviceId }, parsed.data);
      if (use.announce && (kind === 'telemetry' || kind === 'presence' || kind === 'program')) {
        const event = { kind, machineId, message: parsed.data } as MachineEvent;
        for (const watcher of this.watchers) watcher(event);
      }
    } catch (error) {
      this.options.logger.error({ err: error, topic }, 'handling a machine message failed');
    }
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

  /** A reply counts only from the machine the command went to: the topic names who answers. */
  private receiveReply(machineId: string, payload: Buffer): void {
    const body = parseJson(payload);
    const id = typeof body === 'object' && body !== null && 'id' in body ? String(body.id) : salvageId(payload);
    const pending = id === undefined ? undefined : this.pending.get(id);
    if (!pending || pending.machineId !== machineId) return;
    const reply = ReplyMessageSchema.safeParse(body);
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

/**
 * A report from a clock far ahead would win over every later one (the newest `ts` is the state);
 * one older than the backfill window is no delayed upload. Presence is exempt from the latter:
 * the retained "online" of a machine connected for weeks carries the moment it connected.
 */
function outsideClockWindow(kind: MachineMessageKind, message: MachineMessages[MachineMessageKind], now: number) {
  const ts = 'ts' in message ? message.ts : undefined;
  if (ts === undefined) return false;
  if (ts > now + MACHINE_LIMITS.clockSkewMs) return true;
  return kind !== 'presence' && ts < now - MACHINE_LIMITS.backfillMs;
}

const REPORT_FILTERS = [
  topicFilters.presence,
  topicFilters.telemetry,
  topicFilters.program,
  topicFilters.weather,
  topicFilters.soil,
];
const UNADMITTED_LOG_INTERVAL_MS = 60_000;

/** How long start-up waits for the broker before going on without it. */
const FIRST_CONNECT_WAIT_MS = 5000;

async function connectClient(
  options: MqttGatewayOptions,
  clientId: string,
  subscriptions: Record<string, { qos: 0 | 1 }>,
): Promise<MqttClient> {
  const { username, password } = options.credentials;
  const client = mqtt.connect(options.url, {
    clientId,
    ...(password ? { username, password } : {}),
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    // Subscribing on every connection, below, covers a broker that forgot them (a restart).
    resubscribe: false,
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
    // A command is a small packet sent right after others (acknowledgements): with Nagle's
    // algorithm it would wait for the broker's delayed acknowledgement, about 40 ms.
    if (client.stream instanceof net.Socket) client.stream.setNoDelay(true);
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
