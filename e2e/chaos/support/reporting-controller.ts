import {
  CommandMessageSchema,
  type IdentityResult,
  PROTOCOL_VERSION,
  type PresenceMessage,
  type ReplyMessage,
  type TelemetryMessage,
  topics,
} from '@pivot/contracts';
import mqtt, { type MqttClient } from 'mqtt';

/** Where the controller says its pivot stands, when the server asks it to identify. */
const IDENTITY: IdentityResult = { lat: 52.31, lng: 17.02, armLength: 300, model: 'chaos suite controller' };
const TICK_MS = 20;

/**
 * A registered machine controller that reports telemetry at a steady rate and keeps, for every
 * report, when the broker acknowledged it (PUBACK): the reports the product has promised to keep.
 * It connects as docs/protocol.md asks (persistent session, last will, presence), answers
 * `identify` so it can be added, and lets mqtt.js send again, after a reconnection, every report
 * not acknowledged yet. Each report's `flow` is its sequence number (1, 2, …), so the machine's
 * state in the API tells which report the server stored last.
 */
export class ReportingController {
  /** Acknowledged reports: ts → when the acknowledgement arrived (ms). */
  readonly acknowledged = new Map<number, number>();
  /** Acknowledged reports: ts → the connection it came on (1 the first, 2 after a reconnection, …). */
  readonly acknowledgedOn = new Map<number, number>();
  /** The connection now, or the last one: 1 the first, one more at each reconnection. */
  connection = 1;
  private published = 0;
  private lastTs = 0;
  private stream: NodeJS.Timeout | undefined;

  private constructor(
    readonly machineId: string,
    private readonly client: MqttClient,
  ) {}

  static async connect(brokerUrl: string, machineId: string, secret: string): Promise<ReportingController> {
    const presence = (online: boolean): PresenceMessage => ({ v: PROTOCOL_VERSION, online, ts: Date.now() });
    const client = await mqtt.connectAsync(brokerUrl, {
      clientId: machineId,
      username: machineId,
      password: secret,
      clean: false,
      // A restarted server is found again within a fifth of a second.
      reconnectPeriod: 200,
      // Refused (a broker that lost its account), it keeps trying, as docs/protocol.md asks of a controller.
      reconnectOnConnackError: true,
      connectTimeout: 5000,
      will: {
        topic: topics.presence(machineId),
        payload: Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, online: false })),
        qos: 1,
        retain: true,
      },
    });
    const controller = new ReportingController(machineId, client);
    client.on('message', (_topic, payload) => controller.answer(payload));
    client.on('connect', () => {
      // The first connection was made before this listener was added: each call is a reconnection.
      controller.connection += 1;
      client.publish(topics.presence(machineId), JSON.stringify(presence(true)), { qos: 1, retain: true });
    });
    await client.subscribeAsync(topics.commands(machineId), { qos: 1 });
    await client.publishAsync(topics.presence(machineId), JSON.stringify(presence(true)), { qos: 1, retain: true });
    return controller;
  }

  /** Whether the broker has it connected now (after a refusal it tries again every fifth of a second). */
  get connected(): boolean {
    return this.client.connected;
  }

  /** Reports sent so far, acknowledged or not; also the sequence number of the latest. */
  get sent(): number {
    return this.published;
  }

  /** Starts reporting `perSecond` reports a second, catching up after a late timer so the rate holds on a busy machine. */
  startStream(perSecond: number): void {
    const startedAt = Date.now();
    const startedWith = this.published;
    this.stream = setInterval(() => {
      const due = startedWith + Math.floor(((Date.now() - startedAt) * perSecond) / 1000);
      while (this.published < due) this.report();
    }, TICK_MS);
  }

  stopStream(): void {
    clearInterval(this.stream);
  }

  /** Until every report sent has been acknowledged (after reconnections if need be). */
  async allAcknowledged(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.acknowledged.size < this.published) {
      if (Date.now() > deadline) {
        throw new Error(`${this.published - this.acknowledged.size} of ${this.published} reports never acknowledged`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Goes away cleanly, offline first. */
  async end(): Promise<void> {
    this.stopStream();
    if (this.client.connected) {
      const offline: PresenceMessage = { v: PROTOCOL_VERSION, online: false };
      await this.client.publishAsync(topics.presence(this.machineId), JSON.stringify(offline), {
        qos: 1,
        retain: true,
      });
    }
    await this.client.endAsync(true);
  }

  private report(): void {
    this.published += 1;
    // Unique and increasing: the report's identity on the server.
    const ts = Math.max(Date.now(), this.lastTs + 1);
    this.lastTs = ts;
    const message: TelemetryMessage = {
      v: PROTOCOL_VERSION,
      ts,
      status: 'front',
      angle: (this.published % 3600) / 10,
      distance: IDENTITY.armLength,
      speed: 50,
      pressure: 2.5,
      flow: this.published,
    };
    this.client.publish(topics.telemetry(this.machineId), JSON.stringify(message), { qos: 1 }, (error) => {
      if (error) return;
      this.acknowledged.set(ts, Date.now());
      this.acknowledgedOn.set(ts, this.connection);
    });
  }

  private answer(payload: Buffer): void {
    const parsed = CommandMessageSchema.safeParse(parseJson(payload));
    if (!parsed.success) return;
    const command = parsed.data;
    const reply: ReplyMessage =
      command.type === 'identify'
        ? { v: PROTOCOL_VERSION, id: command.id, ok: true, result: IDENTITY }
        : {
            v: PROTOCOL_VERSION,
            id: command.id,
            ok: false,
            error: { code: 'unsupported', message: 'This controller only reports' },
          };
    this.client.publish(command.replyTo, JSON.stringify(reply), { qos: 1 });
  }
}

export function parseJson(payload: Buffer | string): unknown {
  try {
    return JSON.parse(payload.toString());
  } catch {
    return undefined;
  }
}
