import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { BrokerIdentity, BrokerPolicy } from './broker-policy';

export type EmbeddedBroker = {
  url: string;
  port: number;
  /** The port of the TLS listener, when one was asked for. */
  tlsPort: number | undefined;
  /**
   * Drops a controller's live connection. The embedded broker checks credentials at each
   * connection, so after a new secret or a removal this is all there is to do.
   */
  disconnect: (machineId: string) => Promise<void>;
  /** Where the server's own connection reaches the broker: a loopback listener open from the start. */
  serverUrl: string;
  /**
   * Opens the listeners to controllers: until then their connections are closed at once, before
   * any MQTT is spoken, and they try again (a refused CONNECT would not be retried by many
   * clients). The broker keeps nothing for a subscriber not yet there, so a report it
   * acknowledged before the server's own connection subscribed would be lost.
   */
  admitDevices: () => void;
  close: () => Promise<void>;
};

export type EmbeddedBrokerOptions = {
  port: number;
  host: string;
  policy: BrokerPolicy;
  /** Whether controllers may connect from the start, or only once `admitDevices` is called. */
  admitDevicesAtOnce?: boolean;
  /** A TLS listener for controllers in the field, beside the plain one. */
  tls?: { port: number; certFile: string; keyFile: string };
};

/**
 * How aedes passes messages on: at once, each, with no queue of its own. Its default queues what
 * arrives while 100 messages are still being delivered, and empties that queue by recursion, one
 * frame per message a subscriber had no need to wait for: with thousands of controllers reporting
 * while the server's connection was slow to read, the process died of "Maximum call stack size
 * exceeded" (docs/benchmarks.md, "2 December"). Each connection still waits for its own message
 * to be passed on before reading the next, so what is in flight stays one message a connection.
 */
export const MESSAGE_FLOW = { concurrency: 0 } as const;

/** CONNACK 5, "not authorized": anonymous, unknown, a wrong secret or another's client id. */
const NOT_AUTHORIZED = 5;
/** CONNACK 3: the credentials could not be checked (the database did not answer); the controller retries. */
const SERVER_UNAVAILABLE = 3;

/**
 * The MQTT broker `npm start` runs when MQTT_URL is not set: aedes, in memory, for one server
 * instance and the machines that connect to it. Several instances need a shared broker instead.
 * Every client authenticates and is held to the broker policy; nobody connects anonymously.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { policy } = options;
  const identities = new WeakMap<Client, BrokerIdentity>();
  const machineClients = new Map<string, Client>();
  /**
   * Drops for new credentials, counted: a connection whose credentials were still being checked
   * when its machine was dropped may have been let in by the old secret, so it is refused with
   * "server unavailable" and the controller tries again, with whatever secret it has.
   */
  let drops = 0;
  const droppedAt = new Map<string, number>();
  let admittingDevices = options.admitDevicesAtOnce ?? true;
  const broker = await Aedes.createBroker({
    ...MESSAGE_FLOW,
    drainTimeout: 30_000,
    authenticate: (client, username, password, done) => {
      const address = remoteAddress(client);
      const dropsBefore = drops;
      policy
        .authenticate({ clientId: client.id, username, password: password?.toString('utf8'), address })
        .then((identity) => {
          if (!identity) {
            done(refusal('not authorized', NOT_AUTHORIZED), false);
            return;
          }
          if (identity.kind === 'machine') {
            if ((droppedAt.get(identity.machineId) ?? 0) > dropsBefore) {
              done(refusal('credentials changed', SERVER_UNAVAILABLE), false);
              return;
            }
            // Known from here, not only once ready: a drop between the two must find it.
            machineClients.set(identity.machineId, client);
          }
          identities.set(client, identity);
          done(null, true);
        })
        .catch(() => done(refusal('server unavailable', SERVER_UNAVAILABLE), false));
    },
    // A refused publish closes the connection: MQTT 3.1.1 has no way to refuse one message.
    authorizePublish: (client, packet, done) =>
      done(!client || policy.mayPublish(identities.get(client), packet.topic) ? null : new Error('not authorized')),
    authorizeSubscribe: (client, subscription, done) =>
      done(null, policy.maySubscribe(identities.get(client), subscription.topic) ? subscription : null),
  });
  broker.on('clientDisconnect', (client) => {
    const identity = identities.get(client);
    if (identity?.kind === 'machine' && machineClients.get(identity.machineId) === client) {
      machineClients.delete(identity.machineId);
    }
  });
  const disconnect = (machineId: string) =>
    new Promise<void>((resolve) => {
      drops += 1;
      droppedAt.set(machineId, drops);
      const client = machineClients.get(machineId);
      if (!client) return resolve();
      machineClients.delete(machineId);
      client.close(() => resolve());
    });

  // Without Nagle's algorithm: a command and its reply are small packets right after others, which
  // would otherwise wait for the delayed acknowledgement of the one before (about 40 ms each time).
  const forDevices = (socket: net.Socket) => (admittingDevices ? broker.handle(socket) : socket.destroy());
  const servers = [net.createServer({ noDelay: true }, forDevices)];
  if (options.tls) {
    const secure = tls.createServer(
      { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile), noDelay: true },
      forDevices,
    );
    servers.push(secure);
  }
  const internal = net.createServer({ noDelay: true }, broker.handle);
  servers.push(internal);
  const [port, tlsPort] = await Promise.all([
    listen(servers[0]!, options.port, options.host),
    options.tls ? listen(servers[1]!, options.tls.port, options.host) : undefined,
  ]);
  const internalPort = await listen(internal, 0, '127.0.0.1');
  const connectHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `mqtt://${connectHost}:${port}`,
    serverUrl: `mqtt://127.0.0.1:${internalPort}`,
    port: port!,
    tlsPort,
    disconnect,
    admitDevices: () => {
      admittingDevices = true;
    },
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

function refusal(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
  });
}

function remoteAddress(client: Client): string {
  const connection = client.conn as Partial<net.Socket> | undefined;
  return connection?.remoteAddress?.replace(/^::ffff:/, '') ?? '';
}
