import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

export type ServerProcess = {
  baseUrl: string;
  dataDir: string;
  /** The embedded broker's address, when the server was given a port for it (MQTT_PORT); null on port 0. */
  mqttUrl: string | null;
  /** Everything the server printed to stdout so far. */
  output: () => string;
  stop: () => Promise<void>;
};

/** A TCP port nobody listens on now, for a server (or its embedded broker) to take. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A database of its own on the PostgreSQL of DATABASE_URL, dropped when the server stops. */
async function scratchDatabase(databaseUrl: string) {
  const name = `pivot_e2e_${randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await run(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * Starts the product as `npm start` does, in a fresh data folder and on a free port, and
 * waits until it says it is running. Its embedded broker takes any free port unless `env`
 * names one in MQTT_PORT; then simulated machines can reach it at `mqttUrl`.
 */
export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-e2e-'));
  const port = await freePort();
  const database = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL) : undefined;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(database ? { DATABASE_URL: database.url } : {}),
      // Always the embedded broker, as a first `npm start` has it: with MQTT_URL the product runs no
      // demo fleet, and the server suites already cover a real broker (TEST_MQTT_URL).
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${stdout}\n${stderr}`)), 90_000);
    const check = () => {
      if (stdout.includes('is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });

  const mqttPort = Number(env.MQTT_PORT ?? '0');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    mqttUrl: mqttPort > 0 ? `mqtt://127.0.0.1:${mqttPort}` : null,
    output: () => stdout,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
