/**
 * The production server's footprint: what `npm start` runs, on the embedded PGlite or, with
 * `--database`, on a scratch database of that PostgreSQL server. Every figure is the whole process
 * tree's resident memory with each page counted once (every process's own pages and the shared
 * pages of the one sharing the most: npm and the server share the node binary, which summed RSS
 * counts twice), with the summed RSS and the share of WebAssembly memory (PGlite's heap) beside
 * it; read from /proc, so it runs on Linux.
 * - No demo fleet: the compiled server started a first time (creating its data), stopped (SIGTERM
 *   must end it with exit code 0) and started again on that data: launch to a healthy /api/health
 *   (target < 2 s), and the footprint after `--idleSeconds` (target ≤ 200 MB on PGlite, ≤ 120 MB
 *   on PostgreSQL).
 * - The demo fleet: `npm start` itself, as a person runs it on a fresh clone (npm builds, then
 *   waits on the server, so npm is in the tree), on a first start, every minute for `--minutes`:
 *   target ≤ 250 MB at minute 10 and at the last minute (an hour: `--minutes 60`), and no growth
 *   after minute 10.
 * - With `--heapSnapshotEvery N`, the fleet's server writes a heap snapshot every N minutes, just
 *   after that minute's figure, into the folder printed: what its heap holds, to compare two
 *   minutes. Writing one raised the tree's resident memory by about 290 MB for the rest of the run,
 *   so the figures after the first snapshot are not the product's.
 * - A simulated week: `--weekDays` days of the demo fleet's reports backfilled into a stopped
 *   server's database, then packed and counted by the server's own jobs (target ≤ 250 MB).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import {
  type ScratchDatabase,
  type ServerProcess,
  scratchDatabase,
  startServer,
} from '@pivot/e2e/support/server-process';
import { openDatabase } from '@pivot/server/src/db/client';
import { DEMO_MACHINES, simulateDay } from '@pivot/simulator';
import { insertTelemetryColumns } from './support/bulk-insert';
import { readOptions } from './support/cli';
import { heapSnapshotArguments, writeHeapSnapshot } from './support/heap-snapshot';
import { processTree, treeUniqueMegabytes, treeResidentMegabytes, webAssemblyResidentMegabytes } from './support/proc';
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
const DAY_MS = 86_400_000;
/**
 * The backfilled week ends this many days before today: past the server's default
 * TELEMETRY_PACK_AFTER_DAYS (2) with a day to spare for its time zone, so every day of it is due.
 */
const WEEK_ENDS_DAYS_AGO = 3;
/** Reports a bulk insert carries: a few hundred KB of statement. */
const REPORTS_PER_INSERT = 5_000;

/** How long writing a heap snapshot of the demo fleet's server may take. */
const SNAPSHOT_WITHIN_MS = 2 * MINUTE_MS;
/** Where the heap snapshots go: a folder of this run's own. */
const SNAPSHOTS_DIR = path.join(os.tmpdir(), `pivot-footprint-snapshots-${process.pid}`);

const options = readOptions({ minutes: 40, idleSeconds: 60, weekDays: 7, weekMinutes: 10, heapSnapshotEvery: 0 }, [
  'minutes',
  'weekDays',
  'heapSnapshotEvery',
]);

/** The process tree's resident memory, each page once, with its summed RSS and the server's WebAssembly memory. */
async function footprint(server: ServerProcess): Promise<{ treeMb: number; wasmMb: number; text: string }> {
  const pid = pidOf(server);
  const serverPid = await serverProcessOf(pid);
  const [treeMb, rssMb, wasmMb] = await Promise.all([
    treeUniqueMegabytes(pid),
    treeResidentMegabytes(pid),
    webAssemblyResidentMegabytes(serverPid),
  ]);
  const heap = await serverMemory(server.baseUrl);
  return {
    treeMb,
    wasmMb,
    text: `${treeMb.toFixed(0)} MB (RSS summed ${rssMb.toFixed(0)} MB; WebAssembly ${wasmMb.toFixed(0)} MB${heap})`,
  };
}

/**
 * The server's own word on its memory (/api/health): V8's heap used and reserved, and what it
 * holds outside the heap, so that a step in the tree's figure shows whether it is the JavaScript
 * heap or native memory (PGlite's WebAssembly is beside it already).
 */
async function serverMemory(baseUrl: string): Promise<string> {
  try {
    const { memoryMb } = (await (await fetch(`${baseUrl}/api/health`)).json()) as {
      memoryMb?: { heapTotal: number; heapUsed: number; external: number };
    };
    return memoryMb
      ? `; heap ${memoryMb.heapUsed.toFixed(0)} of ${memoryMb.heapTotal.toFixed(0)} MB, external ${memoryMb.external.toFixed(0)} MB`
      : '';
  } catch {
    return '';
  }
}

function pidOf(server: ServerProcess): number {
  const pid = server.child()?.pid;
  if (pid === undefined) throw new Error('the server process has no pid');
  return pid;
}

/** The node process running the compiled server: the process itself, or the one npm started. */
async function serverProcessOf(pid: number): Promise<number> {
  for (const id of await processTree(pid)) {
    const commandLine = await readFile(`/proc/${id}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes('apps/server/dist/main.js')) return id;
  }
  throw new Error(`no server process under ${pid}`);
}

async function commandOf(pid: number): Promise<string> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ').trim();
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
async function startOnExistingData(
  env: Record<string, string>,
  beforeRestart: (server: ServerProcess) => Promise<void>,
): Promise<ServerProcess> {
  const server = await startServer(env, 'compiled');
  printFigure('after creating the data', (await footprint(server)).text);
  await server.terminate();
  printVerdict('SIGTERM: exit code', String(server.child()?.exitCode), '0', server.child()?.exitCode === 0);
  await beforeRestart(server);

  const launched = performance.now();
  const restarting = server.restart();
  await waitUntil(() => isHealthy(server.baseUrl), 'a healthy /api/health', HEALTHY_WITHIN_MS, HEALTH_POLL_MS);
  printTargeted('launch → healthy (existing data)', performance.now() - launched, 'ms', {
    below: HEALTHY_TARGET_MS,
  });
  await restarting;
  const commandLine = (await readFile(`/proc/${await serverProcessOf(pidOf(server))}/cmdline`, 'utf8'))
    .split('\0')
    .join(' ')
    .trim();
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
  beforeRestart: (server: ServerProcess) => Promise<void> = async () => undefined,
): Promise<void> {
  const database = await databaseEnvironment();
  const forgetAbort = onAbort(async () => database.scratch?.drop());
  try {
    const server = await startOnExistingData({ ...env, ...database.env }, beforeRestart);
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

/** The UTC calendar day `daysAgo` days before today, as ms since the epoch of its midnight. */
function dayStart(daysAgo: number): number {
  return Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS;
}

/**
 * Stores `--weekDays` days of every demo machine's reports (a simulated day of its arm: moving
 * about 60 % of the time, every 5 s then, every 60 s at rest) in the stopped server's database,
 * as rows, as its intake would have left them; the server packs them when it runs.
 */
async function backfillWeek(server: ServerProcess): Promise<number> {
  const database = await openDatabase({ databaseUrl: server.databaseUrl ?? undefined, dataDir: server.dataDir });
  let stored = 0;
  try {
    for (const [machineIndex, machine] of DEMO_MACHINES.entries()) {
      for (let day = 0; day < options.weekDays; day += 1) {
        const reports = simulateDay({
          start: dayStart(WEEK_ENDS_DAYS_AGO + day),
          armLength: machine.armLength,
          seed: machineIndex * 100 + day + 1,
        });
        for (let index = 0; index < reports.length; index += REPORTS_PER_INSERT) {
          const chunk = reports.slice(index, index + REPORTS_PER_INSERT);
          await insertTelemetryColumns(database.db, machine.id, {
            ts: chunk.map((report) => report.ts),
            status: chunk.map((report) => report.status),
            angle: chunk.map((report) => report.angle),
            distance: chunk.map((report) => report.distance),
            speed: chunk.map((report) => report.speed),
            pressure: chunk.map((report) => report.pressure),
            flow: chunk.map((report) => report.flow),
          });
        }
        stored += reports.length;
      }
    }
  } finally {
    await database.close();
  }
  return stored;
}

async function main(): Promise<void> {
  if (options.broker) throw new Error('--broker: the demo fleet runs on the embedded broker, as on the defaults');
  const kind = options.database ? 'postgres' : 'pglite';
  printTitle('Production server footprint (npm start: plain node on the compiled server)', {
    database: options.database ? `PostgreSQL, scratch databases on ${options.database}` : 'embedded PGlite',
    broker: 'embedded aedes',
    fleet: `npm start on a first start with the demo fleet, every minute for ${options.minutes} min`,
    week: `${options.weekDays} days of the demo fleet's reports backfilled, then every minute for ${options.weekMinutes} min`,
    memory: 'resident, each page once, of the process tree (npm where it runs, the server, what they started)',
  });
  await promisify(execFile)('npm', ['run', 'build'], { maxBuffer: 16 * 1024 * 1024 });

  printSection('No demo fleet');
  await withServer({ DEMO_FLEET: 'false' }, async (server) => {
    await sleep(options.idleSeconds * 1000);
    const idle = await footprint(server);
    printTargeted(`idle after ${options.idleSeconds} s`, idle.treeMb, 'MB', { atMost: IDLE_TARGET_MB[kind] });
    printFigure('of it WebAssembly', `${idle.wasmMb.toFixed(0)} MB`);
  });

  if (options.minutes > 0) {
    printSection('Demo fleet: `npm start` on a first start');
    const database = await databaseEnvironment();
    const forgetAbort = onAbort(async () => database.scratch?.drop());
    const snapshots = options.heapSnapshotEvery > 0;
    if (snapshots) await mkdir(SNAPSHOTS_DIR, { recursive: true });
    const server = await startServer(
      snapshots ? { ...database.env, NODE_OPTIONS: heapSnapshotArguments(SNAPSHOTS_DIR).join(' ') } : database.env,
      'npm start',
    );
    try {
      printFigure('process tree', (await Promise.all((await processTree(pidOf(server))).map(commandOf))).join(' → '));
      const curve: number[] = [];
      for (let minute = 1; minute <= options.minutes; minute += 1) {
        await sleep(MINUTE_MS);
        const now = await footprint(server);
        curve.push(now.treeMb);
        printFigure(`at minute ${minute}`, now.text);
        if (snapshots && minute % options.heapSnapshotEvery === 0) {
          const serverPid = await serverProcessOf(pidOf(server));
          printNote(
            await writeHeapSnapshot(serverPid, SNAPSHOTS_DIR, () => isHealthy(server.baseUrl), SNAPSHOT_WITHIN_MS),
          );
        }
      }
      const settledMinute = Math.min(FLEET_SETTLED_MINUTE, curve.length);
      printTargeted(`settled (minute ${settledMinute})`, curve[settledMinute - 1]!, 'MB', { atMost: FLEET_TARGET_MB });
      if (curve.length <= FLEET_SETTLED_MINUTE) {
        printNote(`Growth is judged after minute ${FLEET_SETTLED_MINUTE}: run with --minutes 60.`);
      } else {
        printTargeted(`at minute ${curve.length}`, curve.at(-1)!, 'MB', { atMost: FLEET_TARGET_MB });
        const growth = Math.max(...curve.slice(FLEET_SETTLED_MINUTE)) - curve[FLEET_SETTLED_MINUTE - 1]!;
        printTargeted(`growth after minute ${FLEET_SETTLED_MINUTE}`, growth, 'MB', { atMost: GROWTH_TOLERANCE_MB });
      }
    } finally {
      await server.stop();
      await database.scratch?.drop();
      forgetAbort();
    }
  }

  if (options.weekDays > 0) {
    printSection(`Simulated week (${options.weekDays} days backfilled)`);
    // Info lines: the packing job says when it has packed the week.
    await withServer(
      { LOG_LEVEL: 'info' },
      async (server) => {
        const started = Date.now();
        let packedAt: number | undefined;
        let highest = 0;
        for (let minute = 1; minute <= options.weekMinutes; minute += 1) {
          await sleep(MINUTE_MS);
          const now = await footprint(server);
          highest = Math.max(highest, now.treeMb);
          if (packedAt === undefined && server.output().includes('"msg":"telemetry packed"')) packedAt = Date.now();
          printFigure(`at minute ${minute}`, `${now.text}${packedAt === undefined ? '' : ', week packed'}`);
        }
        printFigure(
          'week packed by the server',
          packedAt === undefined ? 'not yet' : `within ${Math.ceil((packedAt - started) / MINUTE_MS)} min`,
        );
        printTargeted('highest', highest, 'MB', { atMost: FLEET_TARGET_MB });
      },
      async (server) => {
        const started = performance.now();
        const reports = await backfillWeek(server);
        printFigure(
          'backfilled',
          `${reports.toLocaleString('en')} reports (${Math.round(reports / options.weekDays / DEMO_MACHINES.length).toLocaleString('en')} a machine-day) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
      },
    );
  }
}

runBenchmark(
  'server-footprint',
  (options.minutes + options.weekMinutes + (2 * options.idleSeconds) / 60 + 20) * MINUTE_MS,
  main,
);
