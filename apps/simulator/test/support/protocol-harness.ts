import { TOPIC_ROOT, topics } from '@pivot/contracts';
import { connectAsync } from 'mqtt';
import { afterEach, beforeAll } from 'vitest';
import { PivotMachine, type PivotMachineOptions } from '../../src/pivot-machine';
import { uniqueId } from './brokers';
import { TestServer } from './test-server';

/** Short intervals so protocol tests run in real time, fast. */
export const FAST_MACHINE = { movingTelemetryMs: 100, restingTelemetryMs: 300, programProcessingMs: 150 };
export const TEST_SITE = { lat: 52.3, lng: 17, armLength: 400 };

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Leaves a broker as the tests found it: the machines' persistent sessions ended (a clean
 * connection with the same client id drops them) and their retained messages cleared.
 */
export async function forget(
  brokerUrl: string,
  clientIds: readonly string[],
  retained: readonly string[],
): Promise<void> {
  for (const clientId of clientIds) await (await connectAsync(brokerUrl, { clientId, clean: true })).endAsync();
  const cleaner = await connectAsync(brokerUrl, { clientId: uniqueId('cleaner') });
  await Promise.all(retained.map((topic) => cleaner.publishAsync(topic, '', { qos: 1, retain: true })));
  await cleaner.endAsync();
}

/** A test server on the broker, and machines started for a test that are stopped and forgotten after it. */
export function useProtocolHarness(brokerUrl: () => string) {
  let server: TestServer | undefined;
  const started: PivotMachine[] = [];
  beforeAll(async () => {
    server = await TestServer.connect(brokerUrl());
    return () => server!.close();
  });
  afterEach(async () => {
    const machines = started.splice(0);
    await Promise.all(machines.map((machine) => machine.stop()));
    const ids = machines.map((machine) => machine.id);
    await forget(
      brokerUrl(),
      ids,
      ids.flatMap((id) => [topics.presence(id), topics.program(id)]),
    );
  });
  return {
    get server(): TestServer {
      return server!;
    },
    /** Starts a machine with a fresh ID, its topics watched from before it connects. */
    async startMachine(options: Partial<PivotMachineOptions> = {}): Promise<PivotMachine> {
      const id = options.id ?? uniqueId('SIM');
      await server!.watch(`${TOPIC_ROOT}/machines/${id}/#`);
      const machine = new PivotMachine({ brokerUrl: brokerUrl(), id, ...TEST_SITE, ...FAST_MACHINE, ...options });
      started.push(machine);
      await machine.start();
      return machine;
    },
  };
}
