import { randomBytes } from 'node:crypto';
import { BrokerPolicy, type DeviceDirectory } from '../../src/gateway/broker-policy';
import { PivotMachine, type PivotMachineOptions, silentLogger } from '@pivot/simulator';
import mqtt from 'mqtt';
import type { App } from '../../src/app';
import type { ApiClient } from './api-client';

/**
 * Registered controllers kept in memory, for tests of the broker and the gateway on their own,
 * without the app and its database (the devices module is the real directory).
 */
export class ControllersInMemory implements DeviceDirectory {
  private readonly secrets = new Map<string, string>();
  readonly refusals: { machineId: string; address: string }[] = [];

  /** Registers a controller and returns its secret. */
  add(machineId: string): string {
    const secret = randomBytes(32).toString('base64url');
    this.secrets.set(machineId, secret);
    return secret;
  }

  admits(machineId: string): boolean {
    return this.secrets.has(machineId);
  }

  async verify(machineId: string, secret: string): Promise<'accepted' | 'refused' | 'unknown'> {
    const known = this.secrets.get(machineId);
    if (known === undefined) return 'unknown';
    return known === secret ? 'accepted' : 'refused';
  }

  /** When the broker let each controller in, and from where. */
  readonly connections: { machineId: string; address: string }[] = [];

  connected(machineId: string, address: string): void {
    this.connections.push({ machineId, address });
  }

  refused(machineId: string, address: string): void {
    this.refusals.push({ machineId, address });
  }
}

/** A broker policy with a server account and the given controllers. */
export function policyFor(controllers: DeviceDirectory): BrokerPolicy {
  const policy = new BrokerPolicy({ username: 'pivot-server', password: randomBytes(16).toString('hex') });
  policy.trust(controllers);
  return policy;
}

/** Registers a controller in the app, as an administrator would, and returns its secret. */
export async function registerController(app: App, machineId: string): Promise<string> {
  const admin = await app.users.findFirstAdmin();
  if (!admin) throw new Error('the test app has no administrator');
  const { secret } = await app.devices.register(admin, machineId, { ip: '127.0.0.1', userAgent: null });
  return secret;
}

/** A simulated machine whose controller is registered in the app, started with its secret on the app's broker. */
export async function startRegisteredMachine(
  app: App,
  id: string,
  options: Partial<PivotMachineOptions> = {},
): Promise<PivotMachine> {
  const machine = new PivotMachine({
    brokerUrl: app.mqttUrl,
    id,
    secret: await registerController(app, id),
    lat: 52.2,
    lng: 17.1,
    armLength: 300,
    logger: silentLogger,
    ...options,
  });
  await machine.start();
  return machine;
}

/**
 * A controller whose every message the test writes itself, added as an administrator adds a
 * machine: a simulated machine answers `identify` with its centre and arm, then gives way to a
 * bare MQTT connection under the same ID and secret.
 */
export async function addBareController(
  app: App,
  admin: ApiClient,
  machineId: string,
  pivot: { lat: number; lng: number; armLength: number } = { lat: 52.2, lng: 17.1, armLength: 300 },
): Promise<{ controller: mqtt.MqttClient; sprinklerId: number }> {
  const secret = await registerController(app, machineId);
  const machine = new PivotMachine({ brokerUrl: app.mqttUrl, id: machineId, secret, ...pivot, logger: silentLogger });
  await machine.start();
  const added = await admin.post('/api/sprinkler/', { internalId: machineId });
  await machine.stop();
  if (added.status !== 201) throw new Error(`adding ${machineId}: ${added.status} ${JSON.stringify(added.body)}`);
  const controller = await mqtt.connectAsync(app.mqttUrl, {
    protocolVersion: 4,
    clientId: machineId,
    username: machineId,
    password: secret,
  });
  return { controller, sprinklerId: (added.body as { id: number }).id };
}
