import { randomUUID } from 'node:crypto';
import { type AddressInfo, type Socket, connect as connectSocket, createServer } from 'node:net';
import { Aedes } from 'aedes';
import { beforeAll, describe } from 'vitest';

export type TestBroker = {
  url: string;
  /** The client ids the broker holds a live connection for. */
  connectedClients(): ReadonlySet<string>;
  close(): Promise<void>;
};

/** An aedes broker on a free port, as the server embeds it. */
export async function startEmbeddedBroker(): Promise<TestBroker> {
  const aedes = await Aedes.createBroker();
  // Counted: a client taking over a client id connects before the one it replaces is gone.
  const connections = new Map<string, number>();
  aedes.on('client', (client) => connections.set(client.id, (connections.get(client.id) ?? 0) + 1));
  aedes.on('clientDisconnect', (client) => {
    const left = (connections.get(client.id) ?? 1) - 1;
    if (left > 0) connections.set(client.id, left);
    else connections.delete(client.id);
  });
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    aedes.handle(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    connectedClients: () => new Set(connections.keys()),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

const MOSQUITTO = { host: '127.0.0.1', port: 1883 };
const MOSQUITTO_URL = `mqtt://${MOSQUITTO.host}:${MOSQUITTO.port}`;

function isReachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectSocket({ host, port, timeout: timeoutMs });
    const settle = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });
}

const mosquittoReachable = await isReachable(MOSQUITTO.host, MOSQUITTO.port);

/** A name unique to this test run, so parallel runs on one broker never share a topic or a session. */
export function uniqueId(label: string): string {
  return `t${randomUUID().slice(0, 8)}-${label}`;
}

/**
 * Registers the suite once on an embedded aedes broker and once on the Mosquitto at
 * 127.0.0.1:1883 when it answers; when it does not, says so instead of skipping in silence.
 * connectedClients lists the clients the broker holds connected: aedes tells; Mosquitto has no
 * such list for a client to read, so there it is null.
 */
export function describeOnBrokers(
  title: string,
  suite: (brokerUrl: () => string, connectedClients: (() => ReadonlySet<string>) | null) => void,
): void {
  describe(`${title} (aedes)`, () => {
    let broker: TestBroker | undefined;
    beforeAll(async () => {
      broker = await startEmbeddedBroker();
      return () => broker!.close();
    });
    suite(
      () => broker!.url,
      () => broker!.connectedClients(),
    );
  });
  if (!mosquittoReachable) {
    process.stdout.write(`Mosquitto is not reachable at ${MOSQUITTO_URL}: "${title} (Mosquitto)" is not registered\n`);
    return;
  }
  describe(`${title} (Mosquitto)`, () => suite(() => MOSQUITTO_URL, null));
}
