import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../src/gateway/embedded-broker';
import { ControllersInMemory, policyFor } from '../support/devices';

/** Controllers whose secret check can be held open, as a slow database would. */
class HeldControllers extends ControllersInMemory {
  private gate: Promise<void> | undefined;
  private release: (() => void) | undefined;
  /** Resolves once a check is waiting at the gate. */
  private waiting: (() => void) | undefined;

  /** Holds the next checks until `open` is called; resolves once one is waiting. */
  hold(): Promise<void> {
    this.gate = new Promise((resolve) => (this.release = resolve));
    return new Promise((resolve) => (this.waiting = resolve));
  }

  open(): void {
    this.gate = undefined;
    this.release?.();
  }

  override async verify(machineId: string, secret: string): Promise<'accepted' | 'refused' | 'unknown'> {
    if (this.gate) {
      this.waiting?.();
      await this.gate;
    }
    return super.verify(machineId, secret);
  }
}

/**
 * A controller dropped for new credentials (a new secret, its removal) stays out: the drop finds
 * a connection from the moment its credentials were accepted, and a connection whose check was
 * under way when the drop came is refused, since the old secret may have let it in.
 */
describe('the embedded broker dropping a controller', () => {
  let broker: EmbeddedBroker;
  const controllers = new HeldControllers();
  const secret = controllers.add('DROP-1');

  beforeAll(async () => {
    broker = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', policy: policyFor(controllers) });
  });
  afterAll(() => broker.close());

  const connect = () =>
    mqtt.connectAsync(broker.url, { clientId: 'DROP-1', username: 'DROP-1', password: secret, reconnectPeriod: 0 });

  it('closes a connection the moment it has been let in', async () => {
    const client = await connect();
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await broker.disconnect('DROP-1');
    await closed;
    expect(client.connected).toBe(false);
  });

  it('refuses a connection whose secret was being checked when the drop came, and takes the next try', async () => {
    const checking = controllers.hold();
    const attempt = connect();
    await checking;
    await broker.disconnect('DROP-1');
    controllers.open();
    await expect(attempt).rejects.toThrow(/Server unavailable/i);
    const again = await connect();
    expect(again.connected).toBe(true);
    await again.endAsync();
  });
});
