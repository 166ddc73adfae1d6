import net from 'node:net';
import { Aedes } from 'aedes';

export type EmbeddedBroker = { url: string; port: number; close: () => Promise<void> };

/**
 * The MQTT broker `npm start` runs when MQTT_URL is not set: aedes, in memory, for one server
 * instance and the machines that connect to it. Several instances need a shared broker instead.
 */
export async function startEmbeddedBroker(options: { port: number; host: string }): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker({ drainTimeout: 30_000 });
  // Without Nagle's algorithm: a command and its reply are small packets right after others, which
  // would otherwise wait for the delayed acknowledgement of the one before (about 40 ms each time).
  const server = net.createServer({ noDelay: true }, broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  const connectHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `mqtt://${connectHost}:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
