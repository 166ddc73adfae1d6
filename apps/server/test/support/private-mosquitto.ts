import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOPIC_ROOT } from '@pivot/contracts';
import mqtt from 'mqtt';
import { controllerAclFile } from '../../src/gateway/mosquitto-dynamic-security';

const run = promisify(execFile);

export type PrivateMosquitto = {
  url: string;
  port: number;
  /** The dynamic-security admin, also granted what the Pivot server publishes and reads. */
  admin: { username: string; password: string };
  /** The broker's process id, for its CPU time and memory in /proc. */
  pid: () => number | undefined;
  /** The plugin's file, which it rewrites whole after every change of an account. */
  dynsecFile: string;
  /** Its log (every connection, disconnection and dropped message), until it stops. */
  logFile: string;
  /**
   * With `serverAccount`: the Pivot server's account in Mosquitto's password_file and acl_file,
   * which the broker only reads, as docs/operations.md advises: it outlives the plugin's file.
   */
  server: { username: string; password: string } | undefined;
  /** Runs `mosquitto_ctrl … dynsec <args>` against this broker as the admin; its standard output. */
  dynsec(...args: string[]): Promise<string>;
  /** Ends the broker with this signal (SIGTERM saves its state), calls `meanwhile`, and starts it again on its port. */
  restart(signal: 'SIGTERM' | 'SIGKILL', meanwhile?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
};

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 10_000;

/**
 * A Mosquitto 2 of a test file's own, on a free port in a fresh directory: anonymous connections
 * refused, accounts and ACLs in the dynamic-security plugin. Never the shared broker on 1883.
 * Set up as docs/operations.md says (controllers' topics in an acl_file, receiving denied by
 * default), or, with `olderSetup`, as before that: every account's ACLs in the plugin alone.
 */
export async function startPrivateMosquitto(
  /** Lines added to its configuration, such as a benchmark's production settings (docs/operations.md). */
  extraConfig: readonly string[] = [],
  { olderSetup = false, serverAccount = false }: { olderSetup?: boolean; serverAccount?: boolean } = {},
): Promise<PrivateMosquitto> {
  const binaries = findMosquitto();
  const directory = await mkdtemp(path.join(os.tmpdir(), 'pivot-mosquitto-'));
  const admin = { username: 'admin', password: randomBytes(18).toString('base64url') };
  const dynsecFile = path.join(directory, 'dynamic-security.json');
  const logFile = path.join(directory, 'mosquitto.log');
  let broker: ChildProcess | undefined;
  const stop = async () => {
    if (broker) await stopProcess(broker);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await run(binaries.ctrl, ['dynsec', 'init', dynsecFile, admin.username, admin.password]);
    await grantPivotServer(dynsecFile, admin.username, { denyReceivingByDefault: !olderSetup });
    const aclFile = path.join(directory, 'controllers.acl');
    const server = serverAccount
      ? { username: 'pivot-server', password: randomBytes(18).toString('base64url') }
      : undefined;
    const brokerConfig = olderSetup ? [...extraConfig] : [`acl_file ${aclFile}`, ...extraConfig];
    if (server) {
      const passwordFile = path.join(directory, 'passwords');
      await writeFile(passwordFile, '', { mode: 0o600 });
      await run(binaries.passwd, ['-b', passwordFile, server.username, server.password]);
      brokerConfig.push(`password_file ${passwordFile}`);
    }
    await writeFile(aclFile, [controllerAclFile(), ...(server ? serverAclLines(server.username) : [])].join('\n'));
    const config = path.join(directory, 'mosquitto.conf');
    let port = 0;
    // Another process may take the free port before the broker does: then it exits, and a new port is tried.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      await rm(logFile, { force: true });
      await writeFile(
        config,
        mosquittoConf({ port, plugin: binaries.plugin, dynsecFile, logFile, extraConfig: brokerConfig }),
      );
      broker = spawn(binaries.broker, ['-c', config], { stdio: 'ignore' });
      // Without a listener, a failure to start would be an uncaught exception.
      broker.on('error', () => undefined);
      try {
        await waitForMqtt(`mqtt://${HOST}:${port}`, admin, broker);
        break;
      } catch (error) {
        const log = await readFile(logFile, 'utf8').catch(() => '(no log)');
        await stopProcess(broker);
        if (attempt < 3 && /Address already in use/.test(log)) continue;
        throw new Error(`mosquitto did not start on port ${port}; its log:\n${log}`, { cause: error });
      }
    }
    const url = `mqtt://${HOST}:${port}`;
    const dynsec = async (...args: string[]) => {
      const { stdout, stderr } = await run(binaries.ctrl, [
        ...['-h', HOST, '-p', String(port), '-u', admin.username, '-P', admin.password],
        'dynsec',
        ...args,
      ]);
      // It exits with 0 whatever the broker answers, and tells of a refusal on its standard error only.
      if (/Error/.test(stderr)) throw new Error(`mosquitto_ctrl dynsec ${args.join(' ')}: ${stderr.trim()}`);
      return stdout;
    };
    const restart = async (signal: 'SIGTERM' | 'SIGKILL', meanwhile?: () => Promise<void>) => {
      const running = broker!;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill(signal);
      await exited;
      await meanwhile?.();
      broker = spawn(binaries.broker, ['-c', config], { stdio: 'ignore' });
      broker.on('error', () => undefined);
      // The admin may be gone with the plugin's file: the server's own account tells it is up.
      await waitForMqtt(url, server ?? admin, broker);
    };
    return { url, port, admin, server, pid: () => broker?.pid, dynsecFile, logFile, dynsec, restart, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function mosquittoConf(options: {
  port: number;
  plugin: string;
  dynsecFile: string;
  logFile: string;
  extraConfig: readonly string[];
}): string {
  return [
    `listener ${options.port} ${HOST}`,
    'allow_anonymous false',
    `plugin ${options.plugin}`,
    `plugin_opt_config_file ${options.dynsecFile}`,
    // Started as root, Mosquitto would switch to the "mosquitto" user, who cannot write this directory.
    `user ${os.userInfo().username}`,
    'persistence false',
    `log_dest file ${options.logFile}`,
    'log_type all',
    ...options.extraConfig,
    '',
  ].join('\n');
}

/**
 * `dynsec init` gives its admin role $CONTROL and reading everything; the Pivot server also
 * publishes (commands). Receiving denied by default, as docs/operations.md sets it. Written into the file before the broker starts: changing a role's ACLs
 * over the control API kicks every client holding that role, the admin sending the change
 * included, before its answer goes out, so mosquitto_ctrl would wait 10 s in vain for it.
 */
async function grantPivotServer(
  dynsecFile: string,
  adminUsername: string,
  { denyReceivingByDefault }: { denyReceivingByDefault: boolean },
): Promise<void> {
  const config = JSON.parse(await readFile(dynsecFile, 'utf8')) as {
    defaultACLAccess: Record<string, boolean>;
    clients: { username: string; roles: { rolename: string }[] }[];
    roles: { rolename: string; acls: { acltype: string; topic: string; allow: boolean }[] }[];
  };
  if (denyReceivingByDefault) config.defaultACLAccess.publishClientReceive = false;
  const adminRoles = new Set(
    config.clients.find((client) => client.username === adminUsername)?.roles.map((role) => role.rolename),
  );
  const role = config.roles.find((candidate) => adminRoles.has(candidate.rolename));
  if (!role) throw new Error(`mosquitto_ctrl dynsec init made no role for ${adminUsername}`);
  for (const acltype of ['publishClientSend', 'publishClientReceive', 'subscribePattern']) {
    role.acls.push({ acltype, topic: `${TOPIC_ROOT}/#`, allow: true });
  }
  await writeFile(dynsecFile, JSON.stringify(config, null, 2), { mode: 0o600 });
}

/** What docs/operations.md grants the server's own account in the acl_file. */
function serverAclLines(username: string): string[] {
  return [
    `user ${username}`,
    `topic readwrite ${TOPIC_ROOT}/#`,
    'topic readwrite $CONTROL/dynamic-security/#',
    `topic read $share/+/${TOPIC_ROOT}/#`,
    '',
  ];
}

export function findMosquitto(): { broker: string; ctrl: string; plugin: string; passwd: string } {
  const searchPath = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  const find = (candidates: string[]) => candidates.find((candidate) => existsSync(candidate));
  const broker = find(searchPath.map((folder) => path.join(folder, 'mosquitto')));
  const ctrl = find(searchPath.map((folder) => path.join(folder, 'mosquitto_ctrl')));
  const passwd = find(searchPath.map((folder) => path.join(folder, 'mosquitto_passwd')));
  const plugin = find(
    ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib', '/usr/local/lib'].map((folder) =>
      path.join(folder, 'mosquitto_dynamic_security.so'),
    ),
  );
  if (!broker || !ctrl || !plugin || !passwd) {
    throw new Error('Mosquitto 2 with its dynamic-security plugin is missing: run `bash scripts/ensure-mosquitto.sh`.');
  }
  return { broker, ctrl, plugin, passwd };
}

/** A port nobody listens on now; the broker takes it a moment later. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Until the admin is accepted: the port is open and the plugin has loaded its accounts. */
export async function waitForMqtt(url: string, admin: { username: string; password: string }, broker: ChildProcess) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      const client = await mqtt.connectAsync(url, { ...admin, reconnectPeriod: 0, connectTimeout: 1000 }, false);
      await client.endAsync();
      return;
    } catch (error) {
      if (broker.exitCode !== null || broker.pid === undefined) throw new Error('mosquitto exited', { cause: error });
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** SIGTERM, and SIGKILL if it has not ended 3 s later. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  // No pid: it never started. An exit code or signal: it has ended already.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(killer);
}
