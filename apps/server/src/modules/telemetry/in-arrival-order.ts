/**
 * Runs each key's writes one after another, in the order they were asked for, while different
 * keys' writes run at once. The gateway hands a machine's messages over as they arrive without
 * waiting for the one before to be stored; on PostgreSQL two pooled connections may commit them
 * in either order, and a controller's last will stored after the online of its reconnect would
 * show a working machine offline.
 */
export class InArrivalOrder {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `write` once every write asked for before under `key` has ended (stored or failed). */
  run(key: string, write: () => Promise<void>): Promise<void> {
    const written = (this.tails.get(key) ?? Promise.resolve()).then(write);
    const tail = written.catch(() => undefined);
    this.tails.set(key, tail);
    // A key with nothing waiting is forgotten: a fleet's machines leave no entry each behind.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return written;
  }
}
