import { fileURLToPath } from 'node:url';
import { Aedes, type AedesOptions } from 'aedes';

/**
 * Publishes through aedes as controllers' reports arrive in a burst while a subscriber is slow,
 * as the server's connection is while it writes reports to the database and its socket stops
 * taking more: 150 messages held by that subscriber, then `messages` that nobody waits for. Gives
 * how many were passed on.
 */
export async function burst(options: Partial<AedesOptions>, messages: number): Promise<number> {
  const broker = await Aedes.createBroker(options);
  broker.subscribe(
    'slow/#',
    (_packet, done) => setTimeout(done, 20),
    () => undefined,
  );
  const publish = (topic: string) =>
    new Promise<void>((resolve, reject) => {
      const packet: Parameters<Aedes['publish']>[0] = {
        cmd: 'publish',
        topic,
        payload: Buffer.from('x'),
        qos: 0,
        retain: false,
        dup: false,
      };
      broker.publish(packet, (error) => (error ? reject(error) : resolve()));
    });
  try {
    const held = Array.from({ length: 150 }, () => publish('slow/report'));
    const unheard = Array.from({ length: messages }, (_, index) => publish(`unheard/${index}`));
    await Promise.all([...held, ...unheard]);
    return held.length + unheard.length;
  } finally {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
  }
}

// Run as a script (`tsx aedes-burst.ts <messages>`), the burst meets aedes's own defaults, in a
// process of its own: what that does to a process cannot be caught inside one.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await burst({}, Number(process.argv[2]))}\n`);
}
