import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { TopicIdSchema, machinePermissions } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { z } from 'zod';
import {
  type BrokerAccounts,
  type DeviceAccount,
  type ForeignAccount,
  ForeignBrokerAccountError,
} from './broker-accounts';

/** Where Mosquitto's dynamic-security plugin takes commands, and where it answers them (to every subscriber). */
const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
const DEFAULT_TIMEOUT_MS = 5000;
/**
 * Once a command is on its way the broker has it: Mosquitto answers an account change only after
 * rewriting its whole file (2.7 MB and several seconds at 8,000 accounts, behind the changes
 * queued before it), and a caller told "failed" while the change lands anyway would be wrong.
 */
const DEFAULT_ANSWER_TIMEOUT_MS = 30_000;

export type MosquittoDynamicSecurityOptions = {
  /** The broker, e.g. mqtt://127.0.0.1:1883; credentials go in username and password, not here. */
  url: string;
  /** An account whose roles may publish to and subscribe to $CONTROL/dynamic-security/#. */
  username: string;
  password: string;
  /** Apart from the gateway's, so that managing accounts never disturbs the machines' traffic. */
  clientId: string;
  logger: FastifyBaseLogger;
  /** How long to wait for the broker: the first connection, and a command not yet sent. */
  timeoutMs?: number;
  /** How long to wait for a sent command's answer. */
  answerTimeoutMs?: number;
};

type AclType = 'publishClientSend' | 'publishClientReceive' | 'subscribeLiteral' | 'subscribePattern';
type Acl = { acltype: AclType; topic: string; allow: boolean };

/** The plugin's commands this adapter sends (plugins/dynamic-security in Mosquitto 2.0). */
type Command =
  | { command: 'createRole'; rolename: string; textname: string; acls: Acl[] }
  | { command: 'modifyRole'; rolename: string; acls: Acl[] }
  | { command: 'deleteRole'; rolename: string }
  | {
      command: 'createClient';
      username: string;
      password: string;
      clientid: string;
      textname: string;
      roles: { rolename: string }[];
    }
  | { command: 'getClient'; username: string }
  | { command: 'getDefaultACLAccess' }
  | { command: 'listClients'; verbose: true }
  | { command: 'setClientPassword'; username: string; password: string }
  | { command: 'setClientId'; username: string; clientid: string }
  | { command: 'addClientRole'; username: string; rolename: string }
  | { command: 'removeClientRole'; username: string; rolename: string }
  | { command: 'removeGroupClient'; groupname: string; username: string }
  | { command: 'enableClient'; username: string }
  | { command: 'deleteClient'; username: string };

type Answer = { error: string | undefined; data: unknown };

type Pending = {
  command: string;
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

const ResponsesSchema = z.object({
  responses: z.array(
    z.object({
      command: z.string(),
      correlationData: z.string().optional(),
      error: z.string().optional(),
      data: z.unknown().optional(),
    }),
  ),
});

const ClientSchema = z.object({
  username: z.string(),
  clientid: z.string().optional(),
  disabled: z.boolean().optional(),
  roles: z.array(z.object({ rolename: z.string() })).default([]),
  groups: z.array(z.object({ groupname: z.string() })).default([]),
});
const GetClientDataSchema = z.object({ client: ClientSchema });
const DefaultAclAccessSchema = z.object({
  acls: z.array(z.object({ acltype: z.string(), allow: z.boolean() })),
});
const ListClientsDataSchema = z.object({ clients: z.array(ClientSchema) });

/** The plugin's error texts this adapter treats as "already done" (plugins/dynamic-security/*.c). */
const ROLE_EXISTS = 'Role already exists';
const ROLE_NOT_FOUND = 'Role not found';
const CLIENT_EXISTS = 'Client already exists';
const CLIENT_NOT_FOUND = 'Client not found';

/**
 * Where the broker substitutes the username into ACL patterns (Mosquitto's `acl_file`, see
 * `controllerAclFile`), every controller holds this one role: it grants nothing, and marks the
 * account as a controller's.
 */
export const CONTROLLER_ROLE = 'pivot-controller';
/**
 * Otherwise each machine has a role of its own whose ACLs name its topics: the plugin of
 * Mosquitto 2.0 takes `%u` in a role's ACL literally. Accounts made so by older servers keep it.
 */
const machineRoleName = (machineId: string) => `pivot-machine-${machineId}`;

/**
 * Mosquitto's `acl_file` for controllers: exactly `machinePermissions`, with `%u` (the username,
 * which is the machine ID) for the machine. A match there grants at once; anything else is left
 * to the plugin, which denies controllers all but their role's grants.
 */
export function controllerAclFile(): string {
  const { publish, subscribe } = machinePermissions('%u');
  return [
    ...publish.map((topic) => `pattern write ${topic}`),
    ...subscribe.map((topic) => `pattern read ${topic}`),
    '',
  ].join('\n');
}

/**
 * Controllers' accounts in Mosquitto 2's dynamic-security plugin, managed over its MQTT control
 * API. Each controller gets an account named after its machine ID, usable only with that client
 * ID. The plugin writes its whole file after every change, so what a registration changes decides
 * what registering a fleet costs (docs/scaling.md). Where the broker denies receiving by default
 * (the plugin's default ACL access, docs/operations.md), its `acl_file` holds `controllerAclFile`
 * and a registration is one change: the account, holding the shared `CONTROLLER_ROLE`. Otherwise
 * (a broker not set up so yet) a registration makes a role of the machine's own holding exactly
 * `machinePermissions`, then the account: two changes, each file twice as big. The plugin itself drops a client's live
 * connection when its password changes or it is deleted (it calls
 * mosquitto_kick_client_by_username in setClientPassword, deleteClient, setClientId,
 * addClientRole and removeClientRole), so no extra step is needed for that. It kicks without the
 * last will, though: a dropped controller's retained presence still says online until it is
 * replaced.
 */
export class MosquittoDynamicSecurity implements BrokerAccounts {
  private readonly pending = new Map<string, Pending>();
  /** Commands wait for this: an answer published before the subscription exists is lost. */
  private subscribed = false;
  private readonly subscribedWaiters = new Set<() => void>();
  private closed = false;
  /** Only while connecting the first time, when a refused subscription is fatal. */
  private subscribeFailed: ((error: Error) => void) | undefined;

  private readonly reconnectedListeners: (() => void)[] = [];
  private everSubscribed = false;

  /** Which role a controller gets: the shared one where the broker's acl_file grants its topics. */
  private sharedRole = false;

  private constructor(
    private readonly client: MqttClient,
    private readonly options: MosquittoDynamicSecurityOptions & { timeoutMs: number; answerTimeoutMs: number },
  ) {}

  /**
   * Connected and listening for answers, or an Error: wrong credentials or an unreachable broker
   * are better found when the server starts than at the first device an administrator adds.
   */
  static async connect(options: MosquittoDynamicSecurityOptions): Promise<MosquittoDynamicSecurity> {
    const settings = {
      ...options,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      answerTimeoutMs: options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS,
    };
    const client = mqtt.connect(options.url, {
      clientId: options.clientId,
      username: options.username,
      password: options.password,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: settings.timeoutMs,
      // A clean session forgets the subscription; it is made again on every connection, below.
      resubscribe: false,
    });
    const accounts = new MosquittoDynamicSecurity(client, settings);
    accounts.watchConnection();
    try {
      await accounts.firstConnection();
      await accounts.chooseControllerRole();
    } catch (error) {
      await client.endAsync(true);
      throw error;
    }
    return accounts;
  }

  async setDevice(machineId: string, secret: string, foreign: ForeignAccount): Promise<void> {
    const { username, rolename, created } = await this.createAccount(machineId, secret);
    if (created.error === undefined) return;
    if (created.error !== CLIENT_EXISTS) throw commandError('createClient', created.error);

    // An account made before (or by hand, when told to take it over) is brought back to what a
    // new one would be, and only then re-keyed: the password change is what drops its live connection.
    const { client } = GetClientDataSchema.parse(await this.run({ command: 'getClient', username }));
    if (foreign === 'refuse' && !isControllerAccount(client)) throw new ForeignBrokerAccountError(username);
    if (client.clientid !== username) await this.run({ command: 'setClientId', username, clientid: username });
    for (const role of client.roles) {
      if (role.rolename !== rolename) {
        await this.run({ command: 'removeClientRole', username, rolename: role.rolename });
      }
    }
    // An older server's role of this machine, now that the account holds the shared one instead.
    if (this.sharedRole) await this.deleteMachineRole(username);
    if (!client.roles.some((role) => role.rolename === rolename)) {
      await this.run({ command: 'addClientRole', username, rolename });
    }
    for (const group of client.groups) {
      await this.run({ command: 'removeGroupClient', groupname: group.groupname, username });
    }
    if (client.disabled) await this.run({ command: 'enableClient', username });
    await this.run({ command: 'setClientPassword', username, password: secret });
  }

  async restoreDevices(
    devices: readonly DeviceAccount[],
    done: (machineId: string, created: boolean) => void,
  ): Promise<void> {
    // A plugin file lost whole took the shared role with it, and perhaps the default ACL access.
    await this.chooseControllerRole();
    for (const { machineId, secret } of devices) {
      const { error } = (await this.createAccount(machineId, secret)).created;
      if (error !== undefined && error !== CLIENT_EXISTS) throw commandError('createClient', error);
      done(machineId, error === undefined);
    }
  }

  onReconnected(listener: () => void): void {
    this.reconnectedListeners.push(listener);
  }

  async removeDevice(machineId: string): Promise<void> {
    const username = checkedMachineId(machineId);
    const deleted = await this.send({ command: 'deleteClient', username });
    if (deleted.error !== undefined && deleted.error !== CLIENT_NOT_FOUND) {
      throw commandError('deleteClient', deleted.error);
    }
    await this.deleteMachineRole(username);
  }

  /** Accounts holding the shared role or a role of their own machine (made by an older server). */
  async listDevices(): Promise<string[]> {
    const { clients } = ListClientsDataSchema.parse(await this.run({ command: 'listClients', verbose: true }));
    return clients.filter(isControllerAccount).map((client) => client.username);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.reject(new Error(`Mosquitto dynamic security: closed before the broker answered ${pending.command}`));
    }
    await this.client.endAsync();
  }

  /**
   * The shared role only where the plugin denies receiving by default: the `acl_file` that grants
   * controllers their topics also lets anyone subscribe to any filter (Mosquitto 2.0 checks
   * subscriptions there, not in the plugin), so what a controller receives is then kept to its own
   * commands by that default alone. The broker's `acl_file` cannot be read from here; without it
   * a controller with the shared role may do nothing at all (docs/operations.md).
   */
  private async chooseControllerRole(): Promise<void> {
    const { acls } = DefaultAclAccessSchema.parse(await this.run({ command: 'getDefaultACLAccess' }));
    this.sharedRole = acls.some((acl) => acl.acltype === 'publishClientReceive' && !acl.allow);
    if (!this.sharedRole) {
      this.options.logger.warn(
        'Mosquitto lets clients receive by default: each controller gets a role of its own, and registering a fleet costs the square of its size (docs/operations.md)',
      );
      return;
    }
    const created = await this.send({
      command: 'createRole',
      rolename: CONTROLLER_ROLE,
      textname: 'Pivot machine controllers',
      acls: [],
    });
    if (created.error !== undefined && created.error !== ROLE_EXISTS) throw commandError('createRole', created.error);
  }

  /** The broker's answer to making the account, which may exist already. */
  private async createAccount(machineId: string, secret: string) {
    const username = checkedMachineId(machineId);
    if (secret.length === 0) throw new Error('A device secret may not be empty');
    const rolename = this.sharedRole ? CONTROLLER_ROLE : machineRoleName(username);
    if (!this.sharedRole) await this.ensureRole(rolename, machineAcls(username));
    const created = await this.send({
      command: 'createClient',
      username,
      password: secret,
      // The account works only under the machine's own client ID, so it cannot take over another's session.
      clientid: username,
      textname: `Pivot machine ${username}`,
      roles: [{ rolename }],
    });
    return { username, rolename, created };
  }

  /** Nothing when there is none: asking costs no write of the plugin's file. */
  private async deleteMachineRole(machineId: string): Promise<void> {
    const role = await this.send({ command: 'deleteRole', rolename: machineRoleName(machineId) });
    if (role.error !== undefined && role.error !== ROLE_NOT_FOUND) throw commandError('deleteRole', role.error);
  }

  /**
   * A role created by an older server may hold other ACLs: modifyRole with `acls` replaces the
   * whole list at once, so no moment passes with a partial one.
   */
  private async ensureRole(rolename: string, acls: Acl[]): Promise<void> {
    const created = await this.send({ command: 'createRole', rolename, textname: 'Pivot machine controller', acls });
    if (created.error === undefined) return;
    if (created.error !== ROLE_EXISTS) throw commandError('createRole', created.error);
    await this.run({ command: 'modifyRole', rolename, acls });
  }

  /** The answer's data; an error from the broker is an exception. */
  private async run(command: Command): Promise<unknown> {
    const answer = await this.send(command);
    if (answer.error !== undefined) throw commandError(command.command, answer.error);
    return answer.data;
  }

  /**
   * Sends one command and waits for the answer carrying its correlation data, error or not. A
   * command the broker cannot be reached for fails after `timeoutMs`; once sent, it waits up to
   * `answerTimeoutMs`, as a busy broker still carries it out.
   */
  private send(command: Command): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('Mosquitto dynamic security: the connection is closed'));
    const correlationData = randomUUID();
    const { timeoutMs, answerTimeoutMs } = this.options;
    let settle!: Pick<Pending, 'resolve' | 'reject'>;
    const answer = new Promise<Answer>((resolve, reject) => (settle = { resolve, reject }));
    const giveUpAfter = (ms: number, failure: string) => {
      clearTimeout(this.pending.get(correlationData)?.timer);
      const timer = setTimeout(() => {
        this.pending.delete(correlationData);
        settle.reject(new Error(`Mosquitto dynamic security: ${failure} within ${ms} ms`));
      }, ms);
      this.pending.set(correlationData, { command: command.command, ...settle, timer });
    };
    giveUpAfter(timeoutMs, `${command.command} could not be sent to the broker`);
    void this.whenSubscribed().then(() => {
      // Given up on meanwhile: sending it late could change an account after the caller saw a failure.
      if (!this.pending.has(correlationData)) return;
      const payload = JSON.stringify({ commands: [{ ...command, correlationData }] });
      // QoS 0: a command lost with its connection ends in the timeout, and is never sent again
      // after the caller was told it failed. With QoS 1 the broker's PUBACK would also go just
      // before the answer, which then waits for our delayed TCP acknowledgement (about 40 ms).
      this.client.publish(CONTROL_TOPIC, payload, { qos: 0 }, (error) => {
        if (error) {
          this.options.logger.warn({ err: error, command: command.command }, 'sending a broker command failed');
          return;
        }
        if (this.pending.has(correlationData))
          giveUpAfter(answerTimeoutMs, `the broker did not answer ${command.command}`);
      });
    });
    return answer;
  }

  private whenSubscribed(): Promise<void> {
    if (this.subscribed) return Promise.resolve();
    return new Promise((resolve) => this.subscribedWaiters.add(resolve));
  }

  private watchConnection(): void {
    const { client, options } = this;
    // An outage is logged once when it starts and once when it ends, not at every retry.
    let outage = false;
    const reportOutage = (error?: Error) => {
      if (outage || this.closed) return;
      outage = true;
      options.logger.warn({ err: error, clientId: options.clientId }, 'Mosquitto dynamic security unreachable');
    };
    client.on('error', reportOutage);
    client.on('offline', () => reportOutage());
    client.on('close', () => {
      this.subscribed = false;
    });
    client.on('connect', () => {
      if (outage) options.logger.info({ clientId: options.clientId }, 'Mosquitto dynamic security reachable again');
      outage = false;
      // Commands are small packets sent one after another's answer: with Nagle's algorithm each
      // could wait for the broker's delayed acknowledgement, about 40 ms.
      if (client.stream instanceof net.Socket) client.stream.setNoDelay(true);
      client.subscribe(RESPONSE_TOPIC, { qos: 0 }, (error) => {
        if (error) {
          options.logger.error({ err: error, topic: RESPONSE_TOPIC }, 'subscribing to broker answers failed');
          this.subscribeFailed?.(error);
          return;
        }
        this.subscribed = true;
        for (const resolve of this.subscribedWaiters) resolve();
        this.subscribedWaiters.clear();
        if (this.everSubscribed) for (const listener of this.reconnectedListeners) listener();
        this.everSubscribed = true;
      });
    });
    client.on('message', (topic, payload) => {
      if (topic === RESPONSE_TOPIC) this.receive(payload);
    });
  }

  private firstConnection(): Promise<void> {
    const { client, options } = this;
    return new Promise((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        client.off('error', refused);
        this.subscribedWaiters.delete(settle);
        this.subscribeFailed = undefined;
        if (error) reject(error);
        else resolve();
      };
      // A refused CONNECT (wrong credentials) will be refused again: no use waiting for the timeout.
      const refused = (error: Error) => settle(new Error(`Mosquitto dynamic security: ${error.message}`));
      const timer = setTimeout(
        () => settle(new Error(`Mosquitto dynamic security: the broker did not answer within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      client.on('error', refused);
      this.subscribeFailed = () =>
        settle(new Error(`Mosquitto dynamic security: ${options.username} may not subscribe to ${RESPONSE_TOPIC}`));
      this.subscribedWaiters.add(settle);
    });
  }

  private receive(payload: Buffer): void {
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const parsed = ResponsesSchema.safeParse(body);
    if (!parsed.success) return;
    // Every admin connection hears every answer, other server instances' included.
    for (const response of parsed.data.responses) {
      const pending = response.correlationData === undefined ? undefined : this.pending.get(response.correlationData);
      if (!pending) continue;
      clearTimeout(pending.timer);
      this.pending.delete(response.correlationData!);
      pending.resolve({ error: response.error, data: response.data });
    }
  }
}

/**
 * The ID becomes part of ACL topics: a `+` or `#` in it would grant other machines' topics, so
 * nothing but a valid topic ID reaches the broker.
 */
function checkedMachineId(machineId: string): string {
  if (!TopicIdSchema.safeParse(machineId).success) throw new Error(`"${machineId}" is not a valid machine ID`);
  return machineId;
}

/**
 * Allow-ACLs for exactly what `machinePermissions` grants. Receiving on its commands topic is
 * granted too, so that commands reach the machine even where defaultACLAccess denies receiving.
 */
function machineAcls(machineId: string): Acl[] {
  const { publish, subscribe } = machinePermissions(machineId);
  return [
    ...publish.map((topic): Acl => ({ acltype: 'publishClientSend', topic, allow: true })),
    ...subscribe.flatMap((topic): Acl[] => [
      { acltype: 'subscribeLiteral', topic, allow: true },
      { acltype: 'publishClientReceive', topic, allow: true },
    ]),
  ];
}

/** An account the server made: it holds the shared controllers' role or its machine's own (an older server's). */
function isControllerAccount(client: z.infer<typeof ClientSchema>): boolean {
  return client.roles.some(
    (role) => role.rolename === CONTROLLER_ROLE || role.rolename === machineRoleName(client.username),
  );
}

function commandError(command: string, error: string): Error {
  return new Error(`Mosquitto dynamic security: ${command} failed: ${error}`);
}
