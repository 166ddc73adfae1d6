import {
  CONTROLLERS_CHANGED_TOPIC,
  type CommandType,
  PROTOCOL_VERSION,
  parseTopic,
  topicFilters,
  topics,
} from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { MqttClient } from 'mqtt';
import { connectClient, spokenVersion } from './broker-connection';
import type { ServerCredentials } from './broker-policy';
import { CommandDispatch, type CommandOutcome, type CommandRequest, type LateReply } from './command-dispatch';
import type { ReceiptJournal } from './receipt-journal';
import {
  type ArmDirectory,
  type MachineEvent,
  type MachineMessageHandlers,
  type MachineMessageKind,
  type RejectedMessage,
  ReportIntake,
  type ReportIntakeSettings,
  type ReportUse,
} from './report-intake';

/*
 * The gateway's door: what the rest of the server uses of MQTT is here and in the types below.
 * Behind it, three rooms: the broker connection (broker-connection.ts), command dispatch
 * (command-dispatch.ts) and report intake (report-intake.ts).
 */
export type { CommandOutcome, CommandRequest, CommandResult, LateReply } from './command-dispatch';
export type {
  ArmDirectory,
  MachineArm,
  MachineEvent,
  MachineMessageHandlers,
  MachineMessageKind,
  MachineMessages,
  MessageSource,
  RejectedMessage,
  RejectionReason,
} from './report-intake';

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
  /** Unstored reports at which the broker is made to wait, and below which it is heard again (tests). */
  backlog?: ReportIntakeSettings['backlog'];
  /** Handlers known up front; modules add theirs with `handle` before `start`. */
  handlers?: Partial<MachineMessageHandlers>;
};

const REPORT_FILTERS = [
  topicFilters.presence,
  topicFilters.telemetry,
  topicFilters.program,
  topicFilters.weather,
  topicFilters.soil,
];

/**
 * The only code that speaks MQTT. It subscribes to what machines report, hands each parsed
 * message to the handler of its kind, passes machines' reports to every watcher, and sends
 * commands as request/response with a correlation id, waiting for the reply on this instance's
 * own reply topic.
 */
export class MqttGateway {
  private readonly replyFilter: string;
  private readonly reports: ReportIntake;
  private readonly commands: CommandDispatch;
  private readonly controllerWatchers: (() => void)[] = [];
  private listeningFrom: number | null = null;
  private client: MqttClient | undefined;
  /** With shared subscriptions, a second connection hears every machine for live updates. */
  private liveClient: MqttClient | undefined;
  private readonly noneConnectedWatchers: (() => Promise<void>)[] = [];

  constructor(private readonly options: MqttGatewayOptions) {
    this.replyFilter = topicFilters.replies(options.serverId);
    this.reports = new ReportIntake(options, options.handlers);
    this.commands = new CommandDispatch(options, () => this.client);
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
    this.reports.handle(kind, handler);
  }

  /**
   * Where each added machine's arm is looked up: a report that reaches beyond it is set aside.
   * Until then, and for a machine not added yet, only the protocol's limits hold.
   */
  knowArms(directory: ArmDirectory): void {
    this.reports.knowArms(directory);
  }

  /** Called for every machine report on every server instance, for live updates to browsers. */
  watch(listener: (event: MachineEvent) => void): void {
    this.reports.watch(listener);
  }

  /**
   * Called when no controller is connected, whatever was last heard of them: the embedded broker
   * has just started (a restart after a kill -9 left machines online in the database, and
   * commands sent to them then would go unanswered until they reconnect).
   */
  whenNoneConnected(listener: () => Promise<void>): void {
    this.noneConnectedWatchers.push(listener);
  }

  /** Tells every `whenNoneConnected` listener, and waits for them (before controllers are let in). */
  async noneConnected(): Promise<void> {
    for (const listener of this.noneConnectedWatchers) await listener();
  }

  /** Called when any server instance (this one included) registered or removed a controller. */
  watchControllers(listener: () => void): void {
    this.controllerWatchers.push(listener);
  }

  /** Called for every machine message dropped because it breaks the protocol, on the instance that would have stored it. */
  watchRejections(listener: (rejected: RejectedMessage) => void): void {
    this.reports.watchRejections(listener);
  }

  /** Called for every reply to a command this instance no longer waits for. */
  watchLateReplies(listener: (late: LateReply) => void): void {
    this.commands.watchLateReplies(listener);
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
      (then) => this.reports.whenRoom(then),
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
    return spokenVersion(this.client);
  }

  /**
   * Sends a command and waits for its reply until the timeout. The outcome is never an
   * exception: a machine that does not answer is an ordinary outcome the caller must report.
   */
  command<T extends CommandType>(
    machineId: string,
    request: CommandRequest & { type: T },
    /** The command's correlation id; the caller's record of the command may name it first. */
    id?: string,
  ): Promise<CommandOutcome<T>> {
    return this.commands.send<T>(machineId, request, id);
  }

  /** How many messages were dropped since start because no controller is registered under their machine ID. */
  get unadmittedCount(): number {
    return this.reports.unadmittedCount;
  }

  /** Messages this instance acknowledged to the broker and has not stored yet. */
  get unstoredCount(): number {
    return this.reports.unstoredCount;
  }

  /** Whether the broker is reachable now. */
  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  async close(): Promise<void> {
    this.commands.giveUpWaiting();
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

  /** Each message to its room: controller changes to their watchers, replies to dispatch, reports to intake. */
  private receive(topic: string, payload: Buffer, use: ReportUse): void {
    if (topic === CONTROLLERS_CHANGED_TOPIC) {
      for (const listener of this.controllerWatchers) listener();
      return;
    }
    const parsedTopic = parseTopic(topic);
    if (!parsedTopic || parsedTopic.kind === 'commands') return;
    if (parsedTopic.kind === 'reply') {
      if (parsedTopic.deviceId === this.options.serverId) this.commands.receiveReply(parsedTopic.machineId, payload);
      return;
    }
    const { kind, machineId, deviceId } = parsedTopic;
    this.reports.receive(topic, kind, { machineId, deviceId }, payload, use);
  }
}
