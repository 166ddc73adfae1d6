import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findMosquitto, stopProcess, waitForMqtt } from '../../apps/server/test/support/private-mosquitto';
import { freePort } from './server-process';

export type MosquittoProcess = {
  url: string;
  /** Stops it cleanly (SIGTERM): it writes its persistence file, with the sessions and their queued messages. */
  stop: () => Promise<void>;
  /** Starts it again on the same port with what it saved. */
  start: () => Promise<void>;
  /** What it logged, for a failure's message. */
  log: () => Promise<string>;
  /** Stops it and removes its folder. */
  dispose: () => Promise<void>;
};

const HOST = '127.0.0.1';
/** Anyone gets in; the start-up check connects under this name. */
const PROBE = { username: 'pivot-e2e-probe', password: 'anything' };

/**
 * A Mosquitto 2 of a test's own, on a free port in a fresh folder, set up as docs/operations.md
 * advises for the product (persistence, a large queue per client, no Nagle), so that it can be
 * stopped and started again with the sessions it keeps. It lets anyone in: the product's own
 * check (reports only from registered controllers) still holds, and the tests here are about
 * what survives a crash, not about accounts (the server suite covers Mosquitto's accounts).
 */
export async function startMosquitto(): Promise<MosquittoProcess> {
  const { broker } = findMosquitto();
  const directory = await mkdtemp(path.join(os.tmpdir(), 'pivot-mosquitto-'));
  const logFile = path.join(directory, 'mosquitto.log');
  const config = path.join(directory, 'mosquitto.conf');
  let port = 0;
  let child: ChildProcess | undefined;
  const log = () => readFile(logFile, 'utf8').catch(() => '(no log)');

  const start = async () => {
    await writeFile(config, mosquittoConf({ port, directory, logFile }));
    const started = spawn(broker, ['-c', config], { stdio: 'ignore' });
    // Without a listener, a failure to start would be an uncaught exception.
    started.on('error', () => undefined);
    child = started;
    await waitForMqtt(`mqtt://${HOST}:${port}`, PROBE, started);
  };
  const stop = async () => {
    if (child) await stopProcess(child);
  };
  const dispose = async () => {
    await stop();
    await rm(directory, { recursive: true, force: true });
  };

  try {
    // Another process may take the free port before the broker does: then it exits, and a new port is tried.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await start();
        break;
      } catch (error) {
        await stop();
        if (attempt < 3 && /Address already in use/.test(await log())) continue;
        throw new Error(`mosquitto did not start on port ${port}; its log:\n${await log()}`, { cause: error });
      }
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { url: `mqtt://${HOST}:${port}`, stop, start, log, dispose };
}

function mosquittoConf(options: { port: number; directory: string; logFile: string }): string {
  return [
    `listener ${options.port} ${HOST}`,
    'allow_anonymous true',
    // Started as root, Mosquitto would switch to the "mosquitto" user, who cannot write this folder.
    `user ${os.userInfo().username}`,
    'persistence true',
    `persistence_location ${options.directory}/`,
    // Saved on a clean stop anyway; every few seconds besides, as a production broker would.
    'autosave_interval 5',
    'max_queued_messages 100000',
    'persistent_client_expiration 1h',
    'set_tcp_nodelay true',
    `log_dest file ${options.logFile}`,
    'log_type error',
    'log_type warning',
    'log_type notice',
    'log_type information',
    '',
  ].join('\n');
}
