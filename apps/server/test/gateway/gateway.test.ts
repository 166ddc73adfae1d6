import net from 'node:net';
import { PivotMachine, silentLogger } from '@pivot/simulator';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../src/gateway/embedded-broker';
import { MqttGateway } from '../../src/gateway/mqtt-gateway';
import type { BrokerPolicy } from '../../src/gateway/broker-policy';
import { ControllersInMemory, policyFor } from '../support/devices';

/** This test is about commands; what machines report does not matter here. */
const ignore = () => undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The gateway and a simulated machine on an embedded broker of their own. */
async function startRig(serverId: string, machineId: string) {
  const port = await freePort();
  const controllers = new ControllersInMemory();
  const secret = controllers.add(machineId);
  const policy = policyFor(controllers);
  const broker = await startEmbeddedBroker({ port, host: '127.0.0.1', policy });
  const gateway = await MqttGateway.connect({
    url: broker.url,
    credentials: policy.server,
    admits: (id) => policy.admits(id),
    serverId,
    sharedGroup: undefined,
    commandTimeoutMs: 1000,
    logger: pino({ level: 'silent' }),
    handlers: { telemetry: ignore, presence: ignore, program: ignore, weather: ignore, soil: ignore },
  });
  const machine = new PivotMachine({
    brokerUrl: broker.url,
    id: machineId,
    secret,
    lat: 52,
    lng: 17,
    armLength: 300,
    logger: silentLogger,
  });
  await machine.start();
  return { port, policy, broker, gateway, machine };
}

describe('the gateway on loopback', () => {
  let rig: Awaited<ReturnType<typeof startRig>>;
  beforeAll(async () => {
    rig = await startRig('loopback-test', 'LOOPBACK-1');
  });
  afterAll(async () => {
    await rig.machine.stop();
    await rig.gateway.close();
    await rig.broker.close();
  });

  it('answers a command in a few milliseconds, never held back by Nagle’s algorithm (about 40 ms a time)', async () => {
    const durations: number[] = [];
    for (const motion of ['front', 'back', 'stop', 'front', 'back', 'stop', 'front', 'back', 'stop'] as const) {
      const started = performance.now();
      expect((await rig.gateway.command(rig.machine.id, { type: 'motion', motion })).kind).toBe('ok');
      durations.push(performance.now() - started);
    }
    const median = durations.sort((a, b) => a - b)[Math.floor(durations.length / 2)]!;
    expect(median).toBeLessThan(30);
  });
});

describe('the gateway when the broker restarts', () => {
  let port: number;
  let policy: BrokerPolicy;
  let broker: EmbeddedBroker;
  let gateway: MqttGateway;
  let machine: PivotMachine;

  beforeAll(async () => {
    ({ port, policy, broker, gateway, machine } = await startRig('restart-test', 'RESTART-1'));
  });
  afterAll(async () => {
    await machine.stop();
    await gateway.close();
    await broker.close();
  });

  async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await condition()) return true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return false;
  }

  it('reports a command sent while the broker is down as unanswered, then works again once it is back', async () => {
    expect(await gateway.command(machine.id, { type: 'motion', motion: 'front' })).toEqual({
      kind: 'ok',
      result: { status: 'front' },
    });

    await broker.close();
    const started = Date.now();
    expect(await gateway.command(machine.id, { type: 'motion', motion: 'stop' })).toEqual({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);

    broker = await startEmbeddedBroker({ port, host: '127.0.0.1', policy });
    const answered = await until(
      async () => (await gateway.command(machine.id, { type: 'motion', motion: 'stop' })).kind === 'ok',
      15_000,
    );
    expect(answered).toBe(true);
    expect(machine.state().status).toBe('stop');
  }, 30_000);
});
