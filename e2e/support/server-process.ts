import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
// A demo fleet's first start takes about 45 s of processor; beside the test command's other suites
// a server gets a third of a core or less (a clean clone's first-run waited 90 s and gave up).
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

export type ServerProcess = {
  baseUrl: string;
  /** The running server process, or the last one once it has exited. */
  child: () => ChildProcess | undefined;
  dataDir: string;
  /** The embedded broker's address, when the server was given a port for it (MQTT_PORT); null on port 0. */
  mqttUrl: string | null;
  /** The PostgreSQL database it runs on; null on the embedded PGlite in `dataDir`. */
  databaseUrl: string | null;
  /** Everything the server printed to stdout so far, over all its starts. */
  output: () => string;
  /** Everything it printed to stderr so far, over all its starts. */
  errors: () => string;
  /** Ends the process at once (SIGKILL), as a power cut or the OOM killer would: nothing is flushed. */
  kill: () => Promise<void>;
  /** Stops the process cleanly (SIGTERM) and keeps its data folder and database. */
  terminate: () => Promise<void>;
  /** Starts it again after a kill or a termination: same port, data folder, database and environment. */
  restart: () => Promise<void>;
  /** Stops it cleanly and removes its data folder and the database made for it. */
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

export type ScratchDatabase = { url: string; drop: () => Promise<void> };

/** A database of its own on the PostgreSQL server of `serverUrl`, for one test to drop when done. */
export async function scratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `pivot_e2e_${randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * How the server runs: its TypeScript source through tsx, or the plain JavaScript that `npm start`
 * compiles and runs (built beforehand with `npm run build -w @pivot/server`), or `npm start`
 * itself, npm waiting on it as a person's `npm start` does (it builds first).
 */
export type ServerCode = 'source' | 'compiled' | 'compiled for a fleet' | 'npm start';
/**
 * The compiled server's environment and node arguments are those of the root package.json's
 * `start`, which a test compares (docs/decisions/0008-light-embedded-default.md):
 * - glibc's malloc hands a freed block of more than 128 KiB back to the system at once: by
 *   default it raises that bar to the largest block freed so far, so the 19 MiB of each password
 *   hash (argon2id, on a worker thread) stayed in that thread's arena for good (41 MB on a first
 *   start); elsewhere than glibc the variable means nothing;
 * - one V8 background thread instead of four: each keeps its own malloc arena of compilation and
 *   GC work, 13–24 MB each;
 * - a young generation of at most 3 × 2 MB instead of 3 × 16 MB: a farm's fleet allocates slowly,
 *   and what the young generation grew to under a burst (the first start's history) stayed held;
 * - the heap grown 20 % past what was live before a full collection, not the server's own 50 %
 *   (main.ts): on the demo fleet the heap stayed at 80 MB where it swung between 69 and 97 MB.
 */
export const COMPILED_ENVIRONMENT = { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072' } as const;
export const NODE_ARGUMENTS: Record<Exclude<ServerCode, 'npm start'>, string[]> = {
  source: ['--import', 'tsx', 'apps/server/src/main.ts'],
  compiled: ['--v8-pool-size=1', '--max-semi-space-size=2', '--heap-growing-percent=20', 'apps/server/dist/main.js'],
  // A dealer's server of thousands of machines, as docs/operations.md runs it: a young generation
  // of 6 MB is a small box's, collected hundreds of times a second at thousands of reports a second.
  'compiled for a fleet': ['--v8-pool-size=1', 'apps/server/dist/main.js'],
};

/**
 * Starts the product as `npm start` does (from its source unless `code` says compiled), in a
 * fresh data folder and on a free port, and waits until it says it is running. Its embedded
 * broker takes any free port unless `env` names one in MQTT_PORT; then simulated machines can
 * reach it at `mqttUrl`. With DATABASE_URL in the test's environment it runs on a scratch
 * database there; DATABASE_URL in `env` is used as given (the caller's to drop; empty: PGlite).
 */
export async function startServer(
  env: Record<string, string> = {},
  code: ServerCode = 'source',
  /** Node options before the script, such as a benchmark's `--cpu-prof`. */
  nodeOptions: readonly string[] = [],
): Promise<ServerProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-e2e-'));
  const port = await freePort();
  const scratch =
    !('DATABASE_URL' in env) && process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL) : undefined;
  const databaseUrl = scratch?.url ?? (env.DATABASE_URL || null);
  const childEnv = {
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    // Always the embedded broker, as a first `npm start` has it: with MQTT_URL the product runs no
    // demo fleet, and the server suites already cover a real broker (TEST_MQTT_URL).
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    // Tests and benchmarks never call the internet: no weather forecast for the advice.
    FORECAST_URL: 'off',
    ...env,
  };
  let stdout = '';
  let stderr = '';
  let child: ChildProcess | undefined;

  const launch = async () => {
    const started =
      code === 'npm start'
        ? spawn('npm', ['start'], {
            cwd: repositoryRoot,
            env: { ...childEnv, HOME: process.env.HOME },
            stdio: ['ignore', 'pipe', 'pipe'],
            // A group of its own, so that a kill reaches the server npm started (or the build it runs).
            detached: true,
          })
        : spawn(process.execPath, [...nodeOptions, ...NODE_ARGUMENTS[code]], {
            cwd: repositoryRoot,
            env: code === 'compiled' ? { ...COMPILED_ENVIRONMENT, ...childEnv } : childEnv,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
    child = started;
    // This start's own output decides whether it is running; a restart prints the line again.
    let thisStart = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      thisStart += chunk.toString();
    });
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const fail = (reason: string) => {
        clearTimeout(timer);
        reject(new Error(`server ${reason}:\n${stdout}\n${stderr}`));
      };
      const timer = setTimeout(() => fail('did not start in time'), START_TIMEOUT_MS);
      started.stdout?.on('data', () => {
        if (!thisStart.includes('is running at')) return;
        clearTimeout(timer);
        resolve();
      });
      started.once('exit', (code, signal) => fail(`exited with ${code ?? signal}`));
    });
  };
  const end = async (signal: 'SIGKILL' | 'SIGTERM') => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // npm hands SIGTERM on to the server; SIGKILL ends npm alone, so it is sent to npm's group.
    const kill = (sent: typeof signal) =>
      code === 'npm start' && sent === 'SIGKILL' && running.pid !== undefined
        ? process.kill(-running.pid, sent)
        : running.kill(sent);
    kill(signal);
    // A clean stop that hangs must not hang the tests with it.
    const killer = setTimeout(() => kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(killer);
  };

  try {
    await launch();
  } catch (error) {
    await end('SIGKILL');
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const mqttPort = Number(env.MQTT_PORT ?? '0');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child: () => child,
    dataDir,
    mqttUrl: mqttPort > 0 ? `mqtt://127.0.0.1:${mqttPort}` : null,
    databaseUrl,
    output: () => stdout,
    errors: () => stderr,
    kill: () => end('SIGKILL'),
    terminate: () => end('SIGTERM'),
    restart: async () => {
      await end('SIGKILL');
      await launch();
    },
    stop: async () => {
      await end('SIGTERM');
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
