/**
 * The production server's footprint: what `npm start` runs (plain node on the compiled
 * apps/server/dist/main.js, built here with `npm run build` as `npm start` builds it), on the
 * embedded PGlite or, with `--database`, on a scratch database of that PostgreSQL server. A first
 * start creates the data folder (or migrates the database); the figures are taken on the next
 * start, on the existing data: time from launch to a healthy /api/health (target < 2 s), RSS after
 * `--idleSeconds` with no demo fleet (target ≤ 200 MB on PGlite, ≤ 120 MB on PostgreSQL), and
 * with the demo fleet (the embedded defaults' simulated machines) RSS every minute for `--minutes`
 * (target ≤ 250 MB at 10 minutes, and no growth after). SIGTERM must end it with exit code 0.
 * RSS is read from /proc, so it runs on Linux.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import {
  type ScratchDatabase,
  type ServerProcess,
  scratchDatabase,
  startServer,
} from '@pivot/e2e/support/server-process';
import { readOptions } from './support/cli';
import { printFigure, printNote, printSection, printTargeted, printTitle, printVerdict } from './support/report';
import { onAbort, runBenchmark } from './support/run';
import { sleep, waitUntil } from './support/stats';

const HEALTHY_TARGET_MS = 2000;
const IDLE_TARGET_MB = { pglite: 200, postgres: 120 };
const FLEET_TARGET_MB = 250;
const FLEET_SETTLED_MINUTE = 10;
/** How far RSS may wander above its figure at minute 10 and still count as no growth: allocator noise. */
const GROWTH_TOLERANCE_MB = 10;
const MINUTE_MS = 60_000;
const HEALTH_POLL_MS = 20;
const HEALTHY_WITHIN_MS = 60_000;

const options = readOptions({ minutes: 40, idleSeconds: 60 });

async function residentMegabytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kilobytes === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kilobytes) / 1024;
}

function pidOf(server: ServerProcess): number {
  const pid = server.child()?.pid;
  if (pid === undefined) throw new Error('the server process has no pid');
  return pid;
}

async function isHealthy(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/api/health`)).ok;
  } catch {
    return false;
  }
}

/** The server's environment: a scratch database of its own on PostgreSQL, else PGlite in its data folder. */
async function databaseEnvironment(): Promise<{ env: Record<string, string>; scratch: ScratchDatabase | undefined }> {
  if (!options.database) return { env: { DATABASE_URL: '' }, scratch: undefined };
  const scratch = await scratchDatabase(options.database);
  return { env: { DATABASE_URL: scratch.url }, scratch };
}

/**
 * Starts the compiled server a first time (creating its data), stops it, and starts it again on
 * that data, which is what the figures are about.
 */
async function startOnExistingData(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(env, 'compiled');
  printFigure('RSS after creating the data', `${(await residentMegabytes(pidOf(server))).toFixed(0)} MB`);
  await server.terminate();
  printVerdict('SIGTERM: exit code', String(server.child()?.exitCode), '0', server.child()?.exitCode === 0);

  const launched = performance.now();
  const restarting = server.restart();
  await waitUntil(() => isHealthy(server.baseUrl), 'a healthy /api/health', HEALTHY_WITHIN_MS, HEALTH_POLL_MS);
  printTargeted('launch → healthy (existing data)', performance.now() - launched, 'ms', {
    below: HEALTHY_TARGET_MS,
  });
  await restarting;
  const commandLine = (await readFile(`/proc/${pidOf(server)}/cmdline`, 'utf8')).split('\0').join(' ').trim();
  printFigure('server process', commandLine);
  printVerdict(
    'no TypeScript loader',
    commandLine.includes('tsx') ? 'tsx' : 'none',
    'none',
    !commandLine.includes('tsx'),
  );
  return server;
}

/** Runs a server until the end, whatever happens, and removes its data and scratch database. */
async function withServer(
  env: Record<string, string>,
  measure: (server: ServerProcess) => Promise<void>,
): Promise<void> {
  const database = await databaseEnvironment();
  const forgetAbort = onAbort(async () => database.scratch?.drop());
  try {
    const server = await startOnExistingData({ ...env, ...database.env });
    try {
      await measure(server);
    } finally {
      await server.stop();
    }
  } finally {
    await database.scratch?.drop();
    forgetAbort();
  }
}

async function main(): Promise<void> {
  if (options.broker) throw new Error('--broker: the demo fleet runs on the embedded broker, as on the defaults');
  const kind = options.database ? 'postgres' : 'pglite';
  printTitle('Production server footprint (npm start: plain node on the compiled server)', {
    database: options.database ? `PostgreSQL, scratch databases on ${options.database}` : 'embedded PGlite',
    broker: 'embedded aedes',
    fleet: `demo fleet, RSS every minute for ${options.minutes} min`,
  });
  await promisify(execFile)('npm', ['run', 'build'], { maxBuffer: 16 * 1024 * 1024 });

  printSection('No demo fleet');
  await withServer({ DEMO_FLEET: 'false' }, async (server) => {
    await sleep(options.idleSeconds * 1000);
    printTargeted(`idle RSS after ${options.idleSeconds} s`, await residentMegabytes(pidOf(server)), 'MB', {
      atMost: IDLE_TARGET_MB[kind],
    });
  });

  printSection('Demo fleet');
  await withServer({}, async (server) => {
    const curve: number[] = [];
    for (let minute = 1; minute <= options.minutes; minute += 1) {
      await sleep(MINUTE_MS);
      curve.push(await residentMegabytes(pidOf(server)));
      printFigure(`RSS at minute ${minute}`, `${curve.at(-1)!.toFixed(0)} MB`);
    }
    const settled = curve[Math.min(FLEET_SETTLED_MINUTE, curve.length) - 1]!;
    printTargeted(`settled RSS (minute ${Math.min(FLEET_SETTLED_MINUTE, curve.length)})`, settled, 'MB', {
      atMost: FLEET_TARGET_MB,
    });
    if (curve.length <= FLEET_SETTLED_MINUTE) {
      printNote(`Growth is judged after minute ${FLEET_SETTLED_MINUTE}: run with --minutes 40.`);
      return;
    }
    const growth = Math.max(...curve.slice(FLEET_SETTLED_MINUTE)) - settled;
    printTargeted(`growth after minute ${FLEET_SETTLED_MINUTE}`, growth, 'MB', {
      atMost: GROWTH_TOLERANCE_MB,
    });
  });
}

runBenchmark('server-footprint', (options.minutes + (2 * options.idleSeconds) / 60 + 10) * MINUTE_MS, main);
