import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { TOPIC_ROOT, machinePermissions, topics } from '@pivot/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForeignBrokerAccountError } from '../../src/gateway/broker-accounts';
import { MosquittoDynamicSecurity } from '../../src/gateway/mosquitto-dynamic-security';
import { type PrivateMosquitto, startPrivateMosquitto } from '../support/private-mosquitto';

/** CONNACK 5 in MQTT 3.1.1: what Mosquitto answers a connection it does not authorise. */
const NOT_AUTHORIZED = 5;
/** SUBACK's "failure" for one filter in MQTT 3.1.1. */
const SUBSCRIPTION_REFUSED = 0x80;
/** Far sooner than any keepalive: a kicked connection closes at once. */
const KICK_WITHIN_MS = 2000;

const logger = pino({ level: 'silent' });
const suffix = randomBytes(4).toString('hex');
const machineA = `A-${suffix}`;
const machineB = `B-${suffix}`;

/**
 * Controllers' accounts in a real Mosquitto 2 with the dynamic-security plugin, as the adapter
 * keeps them: who may connect, under which client ID, to publish and subscribe to what, and
 * that a new secret or a removal drops the live connection.
 */
describe('MosquittoDynamicSecurity on a private Mosquitto', () => {
  let broker: PrivateMosquitto;
  let accounts: MosquittoDynamicSecurity;
  /** Sees every message under the protocol's root, as the server would. */
  let watcher: MqttClient;
  const seen: string[] = [];
  const secrets = new Map<string, string>();
  const clients: MqttClient[] = [];

  const connect = async (username: string | undefined, password: string | undefined, clientId = username) => {
    const client = await mqtt.connectAsync(broker.url, {
      username,
      password,
      clientId: clientId ?? `anonymous-${randomBytes(4).toString('hex')}`,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 3000,
    });
    clients.push(client);
    return client;
  };
  const connectMachine = (machineId: string, clientId = machineId) =>
    connect(machineId, secrets.get(machineId), clientId);
  const setDevice = async (machineId: string) => {
    const secret = randomBytes(32).toString('base64url');
    await accounts.setDevice(machineId, secret, 'adopt');
    secrets.set(machineId, secret);
    return secret;
  };

  beforeAll(async () => {
    broker = await startPrivateMosquitto();
    accounts = await MosquittoDynamicSecurity.connect({
      url: broker.url,
      username: broker.admin.username,
      password: broker.admin.password,
      clientId: `pivot-accounts-${suffix}`,
      logger,
    });
    watcher = await mqtt.connectAsync(broker.url, { ...broker.admin, protocolVersion: 4, reconnectPeriod: 0 });
    watcher.on('message', (topic) => seen.push(topic));
    await watcher.subscribeAsync(`${TOPIC_ROOT}/#`, { qos: 1 });
    await setDevice(machineA);
    await setDevice(machineB);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  });
  afterAll(async () => {
    await watcher?.endAsync(true);
    await accounts?.close();
    await broker?.stop();
  });

  it('accepts a machine only with its own secret and its own client ID', async () => {
    await expectRefused(connect(undefined, undefined));
    await expectRefused(connect(machineA, 'not-the-secret'));
    await expectRefused(connect(machineA, secrets.get(machineB)));
    await expectRefused(connectMachine(machineA, machineB));
    await expectRefused(connectMachine(machineA, 'pivot-server-x'));
    const client = await connectMachine(machineA);
    expect(client.connected).toBe(true);
  });

  it("lets a machine publish its own topics and none of another machine's", async () => {
    const a = await connectMachine(machineA);
    const forged = [
      topics.telemetry(machineB),
      topics.presence(machineB),
      topics.program(machineB),
      topics.weather(machineB, 'ST1'),
      topics.soil(machineB, 'S1'),
      topics.replies('srv', machineB),
      topics.commands(machineB),
      topics.commands(machineA),
      `${TOPIC_ROOT}/servers/srv/anything`,
    ];
    const own = [
      topics.presence(machineA),
      topics.weather(machineA, 'ST1'),
      topics.soil(machineA, 'S1'),
      topics.replies('srv', machineA),
      // Last: once the watcher has it, everything published before it has been decided on.
      topics.telemetry(machineA),
    ];
    seen.length = 0;
    for (const topic of [...forged, ...own]) await a.publishAsync(topic, '{"v":1}', { qos: 1 });
    await waitFor(() => seen.includes(topics.telemetry(machineA)));

    expect(seen).toEqual(own);
  });

  it("lets a machine receive its own commands and nothing of another machine's, whatever it subscribes to", async () => {
    const a = await connectMachine(machineA);
    const b = await connectMachine(machineB);
    const received: string[] = [];
    a.on('message', (topic) => received.push(topic));
    // With an acl_file, Mosquitto 2.0 grants every subscription; each message is checked on its way out.
    for (const filter of ['#', '$SYS/#', `${TOPIC_ROOT}/machines/+/commands`, topics.commands(machineB)]) {
      expect(await grantedQos(a, filter), filter).toBe(1);
    }
    expect(await grantedQos(a, topics.commands(machineA))).toBe(1);

    await b.publishAsync(topics.telemetry(machineB), '{"v":1}', { qos: 1 });
    await b.publishAsync(topics.presence(machineB), '{"v":1}', { qos: 1, retain: true });
    await watcher.publishAsync(topics.commands(machineB), '{"v":1}', { qos: 1 });
    await watcher.publishAsync(topics.commands(machineA), '{"v":1}', { qos: 1 });
    await waitFor(() => received.length > 0);
    // A new subscription delivers retained messages: B's presence must not be among them either.
    expect(await grantedQos(a, topics.presence(machineB))).toBe(1);
    await watcher.publishAsync(topics.commands(machineA), '{"v":1}', { qos: 1 });
    await waitFor(() => received.length > 1);
    expect(received).toEqual([topics.commands(machineA), topics.commands(machineA)]);
    await b.publishAsync(topics.presence(machineB), '', { qos: 1, retain: true });
  });

  it('drops the live connection on a new secret, and takes only the new one', async () => {
    const oldSecret = secrets.get(machineA)!;
    const a = await connectMachine(machineA);
    const b = await connectMachine(machineB);
    const closed = closedWithin(a, KICK_WITHIN_MS);

    const newSecret = await setDevice(machineA);
    await closed;

    await expectRefused(connect(machineA, oldSecret));
    expect((await connect(machineA, newSecret)).connected).toBe(true);
    // Only the re-keyed machine was dropped.
    expect(b.connected).toBe(true);
    seen.length = 0;
    await b.publishAsync(topics.telemetry(machineB), '{"v":1}', { qos: 1 });
    await waitFor(() => seen.includes(topics.telemetry(machineB)));
  });

  it('drops and refuses a removed machine, and lists the machines it keeps', async () => {
    expect((await accounts.listDevices()).sort()).toEqual([machineA, machineB].sort());
    const a = await connectMachine(machineA);
    const closed = closedWithin(a, KICK_WITHIN_MS);

    await accounts.removeDevice(machineA);
    await closed;

    await expectRefused(connectMachine(machineA));
    expect(await accounts.listDevices()).toEqual([machineB]);
    await accounts.removeDevice(machineA);
    await accounts.removeDevice(`never-${suffix}`);
    expect(await accounts.listDevices()).toEqual([machineB]);

    // Registered again, it connects with its new secret only.
    await setDevice(machineA);
    expect((await connectMachine(machineA)).connected).toBe(true);
  });

  it('restores missing accounts with the secret given, and leaves an existing one and its connection alone', async () => {
    const machineR = `R-${suffix}`;
    const restoredSecret = randomBytes(32).toString('base64url');
    const a = await connectMachine(machineA);
    const done: [string, boolean][] = [];
    await accounts.restoreDevices(
      [
        { machineId: machineA, secret: 'not-the-current-secret' },
        { machineId: machineR, secret: restoredSecret },
      ],
      (machineId, created) => done.push([machineId, created]),
    );
    expect(done).toEqual([
      [machineA, false],
      [machineR, true],
    ]);
    expect(a.connected).toBe(true);
    await expectRefused(connect(machineA, 'not-the-current-secret'));
    expect((await connect(machineR, restoredSecret)).connected).toBe(true);
    await accounts.removeDevice(machineR);
  });

  it('leaves an account the operator made as it is, connection and all, unless told to take it over', async () => {
    const machineH = `H-${suffix}`;
    await broker.dynsec('createClient', machineH, '-p', 'operator-password');
    await broker.dynsec('addClientRole', machineH, 'admin');
    const operator = await connect(machineH, 'operator-password', `operator-${suffix}`);
    const kicked = vi.fn();
    operator.on('close', kicked);

    await expect(accounts.setDevice(machineH, 'controller-secret', 'refuse')).rejects.toThrow(
      ForeignBrokerAccountError,
    );
    expect(await broker.dynsec('getClient', machineH)).toMatch(/Roles:\s+admin/);
    expect(await accounts.listDevices()).not.toContain(machineH);
    expect((await connect(machineH, 'operator-password', `operator-2-${suffix}`)).connected).toBe(true);
    expect(kicked).not.toHaveBeenCalled();

    await accounts.setDevice(machineH, 'controller-secret', 'adopt');
    await expectRefused(connect(machineH, 'operator-password', machineH));
    expect((await connect(machineH, 'controller-secret', machineH)).connected).toBe(true);
    await accounts.removeDevice(machineH);
  });

  it('brings an account made by hand, and its role, down to least privilege', async () => {
    const machineC = `C-${suffix}`;
    const handMade = 'hand-made-password';
    // A stale role that grants too much, and an account with any client ID, the admin's role and a group that has it too.
    await broker.dynsec('createRole', `pivot-machine-${machineC}`);
    await broker.dynsec('addRoleACL', `pivot-machine-${machineC}`, 'publishClientSend', `${TOPIC_ROOT}/#`, 'allow');
    await broker.dynsec('createClient', machineC, '-p', handMade);
    await broker.dynsec('addClientRole', machineC, 'admin');
    await broker.dynsec('createGroup', `everything-${suffix}`);
    await broker.dynsec('addGroupRole', `everything-${suffix}`, 'admin');
    await broker.dynsec('addGroupClient', `everything-${suffix}`, machineC);
    await broker.dynsec('addClientRole', machineC, `pivot-machine-${machineC}`);
    const before = await connect(machineC, handMade, 'any-client-id');
    expect(await grantedQos(before, '#')).toBe(1);
    const closed = closedWithin(before, KICK_WITHIN_MS);

    await setDevice(machineC);
    await closed;

    await expectRefused(connect(machineC, secrets.get(machineC), 'any-client-id'));
    const c = await connectMachine(machineC);
    seen.length = 0;
    await c.publishAsync(topics.telemetry(machineB), '{"v":1}', { qos: 1 });
    await c.publishAsync(topics.telemetry(machineC), '{"v":1}', { qos: 1 });
    await waitFor(() => seen.includes(topics.telemetry(machineC)));
    expect(seen).toEqual([topics.telemetry(machineC)]);
    expect(await accounts.listDevices()).toContain(machineC);
    await expect(broker.dynsec('getRole', `pivot-machine-${machineC}`)).rejects.toThrow(/Role not found/);
    await accounts.removeDevice(machineC);
  });

  it("keeps an older server's account, with its machine's own role, working, and moves it to the shared role on a new secret", async () => {
    const machineL = `L-${suffix}`;
    const rolename = `pivot-machine-${machineL}`;
    const { publish, subscribe } = machinePermissions(machineL);
    await broker.dynsec('createRole', rolename);
    for (const topic of publish) await broker.dynsec('addRoleACL', rolename, 'publishClientSend', topic, 'allow');
    for (const acltype of ['subscribeLiteral', 'publishClientReceive']) {
      await broker.dynsec('addRoleACL', rolename, acltype, subscribe[0]!, 'allow');
    }
    await broker.dynsec('createClient', machineL, '-c', machineL, '-p', 'older-secret');
    await broker.dynsec('addClientRole', machineL, rolename);
    expect(await accounts.listDevices()).toContain(machineL);

    const older = await connect(machineL, 'older-secret', machineL);
    await expectOwnTopicsOnly(older, machineL);
    const closed = closedWithin(older, KICK_WITHIN_MS);

    await setDevice(machineL);
    await closed;

    await expect(broker.dynsec('getRole', rolename)).rejects.toThrow(/Role not found/);
    expect(await broker.dynsec('getClient', machineL)).toMatch(/Roles:\s+pivot-controller/);
    await expectRefused(connect(machineL, 'older-secret', machineL));
    await expectOwnTopicsOnly(await connectMachine(machineL), machineL);
    expect(await accounts.listDevices()).toContain(machineL);
    await accounts.removeDevice(machineL);
  });

  it("makes a registration one change of the plugin's file: one account holding the shared role", async () => {
    const machineD = `D-${suffix}`;
    const before = (await readFile(broker.dynsecFile, 'utf8')).length;
    await setDevice(machineD);
    const client = await broker.dynsec('getClient', machineD);
    expect(client).toMatch(/Roles:\s+pivot-controller/);
    expect(client).toMatch(new RegExp(`Clientid:\\s+${machineD}`));
    await expect(broker.dynsec('getRole', `pivot-machine-${machineD}`)).rejects.toThrow(/Role not found/);
    // An account without a role of its own: a few hundred bytes in the file where it took 1,657.
    expect((await readFile(broker.dynsecFile, 'utf8')).length - before).toBeLessThan(500);
    await accounts.removeDevice(machineD);
  });

  /** Publishes its telemetry and reads its commands; B's topics stay closed to it either way. */
  async function expectOwnTopicsOnly(client: MqttClient, machineId: string): Promise<void> {
    const received: string[] = [];
    client.on('message', (topic) => received.push(topic));
    await client.subscribeAsync([topics.commands(machineId), topics.commands(machineB)], { qos: 1 });
    seen.length = 0;
    await client.publishAsync(topics.telemetry(machineB), '{"v":1}', { qos: 1 });
    await client.publishAsync(topics.telemetry(machineId), '{"v":1}', { qos: 1 });
    await waitFor(() => seen.includes(topics.telemetry(machineId)));
    expect(seen).toEqual([topics.telemetry(machineId)]);
    await watcher.publishAsync(topics.commands(machineB), '{"v":1}', { qos: 1 });
    await watcher.publishAsync(topics.commands(machineId), '{"v":1}', { qos: 1 });
    await waitFor(() => received.length > 0);
    expect(received).toEqual([topics.commands(machineId)]);
  }

  it('reports refused credentials, unanswered commands and IDs that are no topic level', async () => {
    const options = { url: broker.url, clientId: `pivot-accounts-2-${suffix}`, logger, timeoutMs: 1000 };
    await expect(
      MosquittoDynamicSecurity.connect({ ...options, username: broker.admin.username, password: 'wrong' }),
    ).rejects.toThrow(/Not authorized/i);

    // An account that hears the plugin's answers but may not send it commands.
    await broker.dynsec('createRole', `listener-${suffix}`);
    for (const acltype of ['subscribePattern', 'publishClientReceive']) {
      await broker.dynsec('addRoleACL', `listener-${suffix}`, acltype, '$CONTROL/dynamic-security/#', 'allow');
    }
    await broker.dynsec('createClient', `listener-${suffix}`, '-p', 'listener-password');
    await broker.dynsec('addClientRole', `listener-${suffix}`, `listener-${suffix}`);
    // It is found at the start: the adapter asks the plugin's default ACL access before anything else.
    await expect(
      MosquittoDynamicSecurity.connect({
        ...options,
        username: `listener-${suffix}`,
        password: 'listener-password',
        timeoutMs: 300,
        answerTimeoutMs: 300,
      }),
    ).rejects.toThrow('the broker did not answer getDefaultACLAccess within 300 ms');

    await expect(accounts.setDevice(`${machineB}/#`, 'secret', 'refuse')).rejects.toThrow(/not a valid machine ID/);
    await expect(accounts.setDevice('+', 'secret', 'refuse')).rejects.toThrow(/not a valid machine ID/);
  });
});

/** A broker busy rewriting its account file answers late; one that is gone cannot be sent anything. */
describe('MosquittoDynamicSecurity waiting for the broker', () => {
  let broker: PrivateMosquitto;
  let accounts: MosquittoDynamicSecurity;

  beforeAll(async () => {
    broker = await startPrivateMosquitto();
    accounts = await MosquittoDynamicSecurity.connect({
      url: broker.url,
      ...broker.admin,
      clientId: `pivot-accounts-${suffix}`,
      logger,
      timeoutMs: 300,
      answerTimeoutMs: 10_000,
    });
  });
  afterAll(async () => {
    await accounts?.close();
    await broker?.stop();
  });

  it('waits past the connection timeout for the answer to a change it has sent, and fails fast on one it cannot send', async () => {
    const machine = `S-${suffix}`;
    const pid = broker.pid()!;
    // A stopped broker still takes the command into its socket, as a busy one does, and answers when it resumes.
    process.kill(pid, 'SIGSTOP');
    const change = accounts.setDevice(machine, 'slow-answer-secret', 'refuse');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    process.kill(pid, 'SIGCONT');
    await expect(change).resolves.toBeUndefined();
    const controller = await mqtt.connectAsync(broker.url, {
      username: machine,
      password: 'slow-answer-secret',
      clientId: machine,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    await controller.endAsync(true);

    await broker.stop();
    const started = Date.now();
    await expect(accounts.setDevice(`T-${suffix}`, 'secret', 'refuse')).rejects.toThrow(
      'createClient could not be sent to the broker within 300 ms',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/**
 * A broker not yet set up with the controllers' acl_file (receiving allowed by default): the
 * adapter keeps each controller to its own topics with a role of the machine's own, as before.
 */
describe("MosquittoDynamicSecurity on a Mosquitto without the controllers' acl_file", () => {
  let broker: PrivateMosquitto;
  let accounts: MosquittoDynamicSecurity;
  const machine = `O-${suffix}`;
  const other = `P-${suffix}`;

  beforeAll(async () => {
    broker = await startPrivateMosquitto([], { olderSetup: true });
    accounts = await MosquittoDynamicSecurity.connect({
      url: broker.url,
      ...broker.admin,
      clientId: `pivot-accounts-${suffix}`,
      logger,
    });
  });
  afterAll(async () => {
    await accounts?.close();
    await broker?.stop();
  });

  it('gives each controller a role of its own, and refuses it any other subscription', async () => {
    await accounts.setDevice(machine, 'secret-o', 'refuse');
    await accounts.setDevice(other, 'secret-p', 'refuse');
    expect(await broker.dynsec('getClient', machine)).toMatch(new RegExp(`Roles:\\s+pivot-machine-${machine}`));
    expect((await accounts.listDevices()).sort()).toEqual([machine, other].sort());
    const client = await mqtt.connectAsync(broker.url, {
      username: machine,
      password: 'secret-o',
      clientId: machine,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    try {
      for (const filter of ['#', topics.commands(other)]) {
        expect(await grantedQos(client, filter), filter).toBe(SUBSCRIPTION_REFUSED);
      }
      expect(await grantedQos(client, topics.commands(machine))).toBe(1);
    } finally {
      await client.endAsync(true);
    }
    await accounts.removeDevice(machine);
    await expect(broker.dynsec('getRole', `pivot-machine-${machine}`)).rejects.toThrow(/Role not found/);
  });
});

async function expectRefused(connection: Promise<MqttClient>): Promise<void> {
  const error: unknown = await connection.then(
    () => new Error('the connection was accepted'),
    (refusal: unknown) => refusal,
  );
  expect(error).toMatchObject({ code: NOT_AUTHORIZED });
}

/** The QoS the broker granted for one filter, or 0x80 when it refused it. */
function grantedQos(client: MqttClient, filter: string): Promise<number> {
  return new Promise((resolve, reject) => {
    client.subscribe(filter, { qos: 1 }, (error, _granted, packet) => {
      const code = packet?.granted[0];
      if (typeof code === 'number') resolve(code);
      else reject(error ?? new Error(`no SUBACK for ${filter}`));
    });
  });
}

function closedWithin(client: MqttClient, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the connection was still open after ${ms} ms`)), ms);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function waitFor(condition: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waited in vain');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
