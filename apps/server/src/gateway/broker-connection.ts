import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { ServerCredentials } from './broker-policy';
import type { ReceiptJournal } from './receipt-journal';

/** How the gateway reaches the broker: the part of its options a connection needs. */
export type BrokerConnectionSettings = {
  url: string;
  /** The server's own broker account; an empty password leaves the account to the URL, if it names one. */
  credentials: ServerCredentials;
  /** Try MQTT 5 first, and fall back to 3.1.1 when the broker refuses it; false: 3.1.1 only. */
  tryMqtt5: boolean;
  logger: FastifyBaseLogger;
};

/** How long start-up waits for the broker before going on without it. */
const FIRST_CONNECT_WAIT_MS = 5000;

/** The MQTT version a client speaks with the broker now: 5, or 4 for 3.1.1. */
export function spokenVersion(client: MqttClient | undefined): 4 | 5 {
  return client?.options.protocolVersion === 5 ? 5 : 4;
}

/**
 * A connection to the broker that subscribes on every connect (a broker that restarted forgot
 * the subscriptions), reconnects soon after an outage and logs it once each way, and falls back
 * to MQTT 3.1.1 when the broker refuses 5. Resolves once subscribed, or after
 * FIRST_CONNECT_WAIT_MS without the broker: the server starts without it and keeps trying.
 */
export async function connectClient(
  settings: BrokerConnectionSettings,
  clientId: string,
  subscriptions: Record<string, { qos: 0 | 1 }>,
  sessionExpirySeconds: number,
  onMessage: (topic: string, payload: Buffer) => void,
  /** Where the messages of this connection are journalled before they are acknowledged. */
  journal: ReceiptJournal | undefined,
  /**
   * Called after each message is handled with what lets the connection acknowledge it and read
   * the next; holding it back makes the broker wait (TCP flow control) and queue for the session.
   */
  whenRoom?: (then: () => void) => void,
): Promise<MqttClient> {
  const { username, password } = settings.credentials;
  const client = mqtt.connect(settings.url, {
    clientId,
    ...(password ? { username, password } : {}),
    ...(settings.tryMqtt5
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
  if (whenRoom) client.handleMessage = (_packet, callback) => whenRoom(() => callback());
  client.on('error', (error) => {
    if (client.options.protocolVersion !== 5 || !refusesMqtt5(error)) return;
    // The next attempt, a second later, speaks 3.1.1; its session lasts until the broker's own
    // expiry (Mosquitto's persistent_client_expiration), as 3.1.1 cannot say how long.
    client.options.protocolVersion = 4;
    delete client.options.properties;
    settings.logger.info({ clientId }, 'the MQTT broker speaks 3.1.1 only: no message expiry on commands');
    // A refused connection is not retried by itself; this one asks again, in words the broker knows.
    setTimeout(() => client.reconnect(), 0);
  });
  // An outage is logged once when it starts and once when it ends, not at every retry.
  let outage = false;
  const reportOutage = (error?: Error) => {
    if (outage) return;
    outage = true;
    settings.logger.warn(
      { err: error, clientId, url: redactUrl(settings.url) },
      'MQTT broker unreachable; reconnecting',
    );
  };
  client.on('error', reportOutage);
  client.on('offline', () => reportOutage());
  client.on('connect', () => {
    if (outage) settings.logger.info({ clientId }, 'MQTT broker reachable again');
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
        if (error) settings.logger.error({ err: error, clientId }, 'MQTT subscription failed');
        resolve(!error);
      });
    });
  });
  const ready = await Promise.race([
    subscribed,
    new Promise<false>((resolve) => setTimeout(() => resolve(false), FIRST_CONNECT_WAIT_MS).unref()),
  ]);
  if (!ready)
    settings.logger.error(
      { url: redactUrl(settings.url) },
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
