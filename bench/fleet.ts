/**
 * A dealer's fleet on one server: `--machines` controllers (10,000 by default) in `--processes`
 * processes of their own, each registered through the product's API (POST /api/device/) with its
 * own secret, on the setup docs/operations.md gives a large fleet: a Mosquitto 2 whose accounts
 * the server keeps through the dynamic-security plugin, and PostgreSQL (a scratch database
 * fleetscale_…). The server is the compiled one `npm start` runs, in a process of its own.
 * `--movingPercent` of the machines water and report every 5 s, the rest stand and report every
 * 60 s, each with its weather station and soil probes; some misbehave (alarms, drop-offs);
 * `--users` signed-in users (`--dealers` of them administrators who see every machine, the
 * others farmers with a share each) keep a tab's list and alert streams open and now and then
 * open the machines table's first page and a machine's page.
 *
 * The setting up goes as a dealer's would, each step timed apart: the controllers' accounts
 * registered, the controllers connected, each machine added (POST /api/sprinkler/: the server
 * asks the controller who it is; a failed add is tried again, and the run stops with the
 * server's answer if it keeps failing) and granted. The controllers answer from the moment they
 * connect but report only once every machine is added and granted, each machine's first reports
 * at random points of their intervals, as a fleet long at work reports: a fleet reporting
 * in full while thousands of machines are still being added would measure the adding, not the
 * fleet. The run checks that the server received no report before.
 *
 * After `--warmUpSeconds`, over `--minutes`, it prints the server's CPU share and RSS (from
 * /proc), reports sent and stored, the report ledger (every report the broker acknowledged looked
 * for by machine and ts once nothing is on its way: stored, set aside, or found nowhere, and then
 * what happened around it), report → list stream latency p95, the incident watch's
 * look time (GET /api/health), alarm → alert latency p95, list and detail p95, PostgreSQL's
 * growth per hour, and how long registering the controllers took. Targets (issue 22): server
 * ≤ 1 core and ≤ 500 MB, 0 reports lost, live p95 < 1 s, alerts p95 < 5 s; (issue 38) the
 * administrators' list and detail p95 < 500 ms, printed apart from the farmers'.
 *
 * `--instances N` runs N server instances on the same PostgreSQL and Mosquitto (a shared
 * subscription splits the reports; each instance's share is printed), the users spread over
 * them; `--killAtMinute M` kills the last instance with SIGKILL M minutes into the measuring and
 * starts it again 10 s later, its users kept on the others as a balancer would, and the reports
 * are still looked for one by one.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { DeviceSecretResponseSchema, INCIDENT_KINDS, SprinklerListItemSchema } from '@pivot/contracts';
import { HttpSession } from '@pivot/e2e/support/http-session';
import {
  AcknowledgedReports,
  type LedgerReading,
  type MissingReport,
  describeLedger,
  readLedger,
} from '@pivot/e2e/support/report-ledger';
import { type ServerProcess, startServer } from '@pivot/e2e/support/server-process';
import type { Database } from '@pivot/server/src/db/client';
import { PasswordHasher } from '@pivot/server/src/modules/users/password-hasher';
import { findSprinklerByInternalId } from '@pivot/server/src/modules/sprinklers/sprinklers.repository';
import { insertUser } from '@pivot/server/src/modules/users/users.repository';
import { type PrivateMosquitto, startPrivateMosquitto } from '@pivot/server/test/support/private-mosquitto';
import { type Credentials, siteId } from '@pivot/simulator';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { BrokerWatch } from './support/broker-figures';
import { ChildScript } from './support/child-script';
import { readOptions } from './support/cli';
import type { ShareEvent, ShareRequest } from './support/fleet-share-process';
import type { UsersEvent, UsersRequest } from './support/fleet-users-process';
import { heapSnapshotArguments, writeHeapSnapshot } from './support/heap-snapshot';
import { expectStatus } from './support/machine-setup';
import { CpuMeter, cpuSeconds, memoryParts, residentMegabytes } from './support/proc';
import {
  formatNumber,
  printFigure,
  printNote,
  printSection,
  printTargeted,
  printTitle,
  printVerdict,
} from './support/report';
import { onAbort, runBenchmark } from './support/run';
import { type LatencySummary, sleep, summarise } from './support/stats';

const TARGETS = { cpuPercent: 100, rssMb: 500, lost: 0, liveP95Ms: 1000, alertP95Ms: 5000, dealerPageP95Ms: 500 };
const DEFAULT_DATABASE = 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_EMAIL = 'admin@fleet.bench';
const USER_PASSWORD = 'Fleet-Bench-Password-1';
/** How often the server's memory and health are sampled. */
const SAMPLE_EVERY_MS = 5000;
/** How long a machine that dropped off stays away. */
const AWAY_MS = 30_000;
/** After the last alarm, how long its alerts may take before they count as missing. */
const ALERTS_WITHIN_MS = 30_000;
/**
 * Once the fleet stopped, how long everything must stand still before the ledger is read: the
 * server with nothing unstored and receiving nothing, the stored count.
 */
const SETTLED_MS = 3000;
/** How long the settling may take before the ledger is read anyway, saying so. */
const SETTLE_WITHIN_MS = 120_000;
/** Around a report found nowhere, how far the broker's log, the server's and the bench's events are looked at. */
const CONTEXT_MS = 30_000;
const execFileAsync = promisify(execFile);
/** Tries of adding one machine before the run stops with the server's last answer. */
const ADD_TRIES = 3;
/** Between two tries of adding a machine: time for a busy server, or a controller reconnecting. */
const ADD_AGAIN_AFTER_MS = 5000;
/** How long a killed instance stays down before it is started again. */
const DOWN_MS = 10_000;
/**
 * Where the server's CPU profile (--profile 1, written when it stops) and heap snapshot
 * (--heapSnapshot 1) go. A folder of this run's own: two runs at once on a shared machine must
 * not mix their files.
 */
const DIAGNOSTICS_DIR = path.join(os.tmpdir(), `pivot-fleet-diagnostics-${process.pid}`);
/** How long a heap snapshot of a server holding 10,000 machines may take to write. */
const SNAPSHOT_WITHIN_MS = 5 * 60_000;

const options = readOptions(
  {
    machines: 10_000,
    processes: 4,
    minutes: 10,
    warmUpSeconds: 60,
    users: 50,
    dealers: 5,
    movingPercent: 60,
    alarmsPerMinute: 6,
    dropOffsPerMinute: 6,
    /** 1: every machine has its weather station and soil probes, as on a farm; 0: none. */
    peripherals: 1,
    /** Registration and adding calls at a time, as a few administrators' tabs (or a script) would. */
    callsAtOnce: 8,
    /** How often each user opens the list and a machine's page, s. */
    browseSeconds: 30,
    /** 1: the server writes a CPU profile (node --cpu-prof) into the folder the run prints, for where its time went. */
    profile: 0,
    /**
     * 1: once the window's alerts are in, each server writes a V8 heap snapshot (node
     * --heapsnapshot-signal) into the folder the run prints, for where its memory goes. The
     * fleet goes on reporting meanwhile, so the snapshot holds what the measuring held.
     */
    heapSnapshot: 0,
    /** Server instances on the same database and broker. */
    instances: 1,
    /** When, in minutes into the measuring, the last instance is killed (SIGKILL) and started again; 0: never. */
    killAtMinute: 0,
  },
  [
    'warmUpSeconds',
    'dealers',
    'alarmsPerMinute',
    'dropOffsPerMinute',
    'peripherals',
    'profile',
    'heapSnapshot',
    'killAtMinute',
  ],
);

function describeLatency(summary: LatencySummary | undefined, unit: 'ms' | 's' = 'ms'): string {
  if (!summary) return 'none';
  const show = (ms: number) => (unit === 's' ? `${formatNumber(ms / 1000, 2)} s` : `${formatNumber(ms)} ms`);
  return `p50 ${show(summary.p50)}, p95 ${show(summary.p95)}, max ${show(summary.max)} (${formatNumber(summary.count)})`;
}

const summariseSome = (samples: readonly number[]) => (samples.length > 0 ? summarise(samples) : undefined);

type Answer = { status: number; body: unknown };

/** A call's answer; a call with none (the connection reset, the server silent) as status 0 with fetch's reason. */
function answerOrWhyNot(call: Promise<Answer>): Promise<Answer> {
  return call.catch((error: unknown) => {
    // fetch says only "fetch failed"; what failed is in its cause.
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { status: 0, body: `${error instanceof Error ? error.message : String(error)}${cause}` };
  });
}

function describeAnswer(answer: Answer): string {
  return answer.status === 0
    ? `no answer (${String(answer.body)})`
    : `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
}

/** Runs the work for every item, at most `atOnce` at a time; returns each call's duration, ms. */
async function forEachAtOnce<T>(items: readonly T[], atOnce: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const durations: number[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      const start = performance.now();
      await work(item);
      durations.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return durations;
}

/** A database of this run's own on the PostgreSQL server, dropped at the end. */
async function scratchDatabase(serverUrl: string) {
  const name = `fleetscale_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    sizeBytes: async () =>
      Number((await run(`select pg_database_size('${name}') as size`)).rows[0]!.size as string | number),
    drop: () => run(`drop database if exists ${name} with (force)`).then(() => undefined),
  };
}

type Setting = {
  mosquitto: PrivateMosquitto;
  /** The first one migrates the database and takes the administrators' calls. */
  servers: ServerProcess[];
  database: Awaited<ReturnType<typeof scratchDatabase>>;
  pool: pg.Pool;
  db: Database;
  stopVacuuming: () => Promise<void>;
};

/** The Mosquitto with dynamic security, the scratch database and the compiled servers on them. */
async function startSetting(adminPassword: string, instances: number): Promise<Setting> {
  // Node writes a heap snapshot only into a folder that exists (a CPU profile's it makes itself).
  if (options.heapSnapshot > 0) await mkdir(DIAGNOSTICS_DIR, { recursive: true });
  await execFileAsync('npm', ['run', 'build', '-w', '@pivot/server'], { maxBuffer: 16 * 1024 * 1024 });
  const database = await scratchDatabase(options.database ?? DEFAULT_DATABASE);
  const forgetDatabase = onAbort(database.drop);
  // docs/operations.md's settings for a large fleet.
  const mosquitto = await startPrivateMosquitto([
    'set_tcp_nodelay true',
    'max_queued_messages 100000',
    'persistent_client_expiration 14d',
    // Its queue and dropped figures each second, for the settling and the ledger.
    'sys_interval 1',
  ]).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  const forgetMosquitto = onAbort(mosquitto.stop);
  const servers: ServerProcess[] = [];
  const startInstance = async (index: number) => {
    const server = await startServer(
      {
        SERVER_ID: `fleet-${index + 1}`,
        DATABASE_URL: database.url,
        MQTT_URL: mosquitto.url,
        MQTT_USERNAME: mosquitto.admin.username,
        MQTT_PASSWORD: mosquitto.admin.password,
        MQTT_DEVICE_AUTH: 'mosquitto-dynsec',
        MQTT_SHARED_GROUP: 'pivot-api',
        DEMO_FLEET: 'false',
        ADMIN_EMAIL,
        ADMIN_PASSWORD: adminPassword,
        // The run is longer than an access token lives; a browser would refresh it, the bench keeps one.
        ACCESS_TOKEN_TTL_SECONDS: '14400',
        LOG_LEVEL: 'warn',
      },
      'compiled for a fleet',
      [
        ...(options.profile > 0 ? ['--cpu-prof', `--cpu-prof-dir=${DIAGNOSTICS_DIR}`] : []),
        ...(options.heapSnapshot > 0 ? heapSnapshotArguments(DIAGNOSTICS_DIR) : []),
      ],
    );
    servers[index] = server;
  };
  try {
    // The first start migrates the database; the others start on it together.
    await startInstance(0);
    await Promise.all(Array.from({ length: instances - 1 }, (_, index) => startInstance(index + 1)));
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    forgetDatabase();
    forgetMosquitto();
    const stopVacuuming = await vacuumWithoutAutovacuum(pool);
    return { mosquitto, servers, database, pool, db: drizzle(pool) as unknown as Database, stopVacuuming };
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    await mosquitto.stop();
    await database.drop();
    throw error;
  }
}

/** Each table's size with its indexes and TOAST, bytes, by name (partitions under their own names). */
async function tableSizes(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ name: string; bytes: string }>(
    `select c.relname as name, pg_total_relation_size(c.oid) as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname = 'public'`,
  );
  return new Map(rows.map((row) => [row.name, Number(row.bytes)]));
}

/**
 * A PostgreSQL server with autovacuum off (a developer's, say) keeps every updated row's old
 * version, and the machines' state and water tables are updated all the time: the database would
 * grow many times faster than on a server as it runs in production. There the bench vacuums its
 * database once a minute, as autovacuum's launcher would look; elsewhere it leaves it to autovacuum.
 */
async function vacuumWithoutAutovacuum(pool: pg.Pool): Promise<() => Promise<void>> {
  const { rows } = await pool.query<{ autovacuum: string }>('show autovacuum');
  if (rows[0]?.autovacuum === 'on') return () => Promise.resolve();
  printNote('autovacuum is off on this PostgreSQL server: the bench vacuums its database every minute instead.');
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = pool.query('vacuum').catch((error: unknown) => printNote(`vacuum failed: ${String(error)}`));
  }, 60_000);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

async function stopSetting(setting: Setting): Promise<void> {
  await setting.stopVacuuming();
  await setting.pool.end();
  await Promise.all(setting.servers.map((server) => server.stop()));
  await setting.mosquitto.stop();
  await setting.database.drop();
}

type Health = {
  problems: string[];
  reportsReceived: number;
  messagesUnstored: number;
  unregisteredReportsDropped: number;
  incidentLookMs: { p95: number | null; max: number | null; looks: number };
  memoryMb: { resident: number; heapTotal: number; heapUsed: number; external: number };
};

/** The instance's GET /api/health, or undefined while it does not answer it (killed, starting, or too busy). */
function readHealth(instance: ServerProcess): Promise<Health | undefined> {
  return fetch(`${instance.baseUrl}/api/health`)
    .then((response) => (response.ok ? (response.json() as Promise<Health>) : undefined))
    .catch(() => undefined);
}

/** A heap snapshot of the instance, or why there is none. */
async function snapshotOf(instance: ServerProcess): Promise<string> {
  const pid = instance.child()?.pid;
  if (pid === undefined) return 'no heap snapshot: the instance was not running';
  return writeHeapSnapshot(
    pid,
    DIAGNOSTICS_DIR,
    async () => (await readHealth(instance)) !== undefined,
    SNAPSHOT_WITHIN_MS,
  );
}

/** The instance's log lines at warning level and above, and what it wrote to stderr. */
function complaints(instance: ServerProcess): { warnings: string[]; errors: string[] } {
  return {
    warnings: instance
      .output()
      .split('\n')
      .filter((line) => /"level":(40|50|60)/.test(line)),
    errors: instance
      .errors()
      .split('\n')
      .filter((line) => line.trim() !== ''),
  };
}

/**
 * Waits until nothing is on its way to the database: every instance with nothing unstored and
 * receiving nothing more (so the broker's queue for it is empty: it would be reading it), and
 * the stored count still, all for SETTLED_MS; at most SETTLE_WITHIN_MS, then says what still moved.
 */
async function settle(
  servers: readonly ServerProcess[],
  broker: BrokerWatch,
  storedCount: () => Promise<number>,
): Promise<{ ms: number; gaveUp: string | undefined }> {
  const start = Date.now();
  let previous = '';
  let stillSince = start;
  let state = '';
  while (Date.now() - start < SETTLE_WITHIN_MS) {
    const healths = await Promise.all(servers.map(readHealth));
    const unstored = healths.reduce((sum, health) => sum + (health?.messagesUnstored ?? Number.NaN), 0);
    const received = healths.map((health) => health?.reportsReceived ?? 'no answer');
    const stored = await storedCount();
    const figures = broker.latest();
    const moving = JSON.stringify([received, stored]);
    if (moving !== previous || unstored !== 0) stillSince = Date.now();
    previous = moving;
    state = `${unstored} messages unstored at the server, reports received ${received.join(' + ')}, ${stored} stored, ${figures ? figures.stored - figures.retained : 'unknown'} messages held by the broker beyond its retained ones`;
    if (Date.now() - stillSince >= SETTLED_MS) return { ms: Date.now() - start, gaveUp: undefined };
    await sleep(500);
  }
  return { ms: Date.now() - start, gaveUp: state };
}

/** Missing reports told one by one with what happened around them; the rest are counted. */
const NAMED_MISSING = 20;
/** The broker's log lines told around a missing report, the nearest to its time. */
const BROKER_LINES_PER_REPORT = 12;

/**
 * The broker's log lines naming one of the machines or telling of dropped messages, read line by
 * line: Mosquitto logs every packet, about a gigabyte for 10,000 machines over 10 minutes.
 */
async function brokerLogLines(logFile: string, machineIds: ReadonlySet<string>): Promise<string[]> {
  const lines: string[] = [];
  if (machineIds.size === 0) return lines;
  const reader = createInterface({ input: createReadStream(logFile), crlfDelay: Infinity });
  for await (const line of reader) {
    if (line.includes('PINGREQ') || line.includes('PINGRESP')) continue;
    if (line.includes('dropped') || [...machineIds].some((machineId) => line.includes(machineId))) lines.push(line);
  }
  return lines;
}

/**
 * What happened to a missing report's machine around its time: its drop-offs (the bench's own
 * events), the broker's log lines naming it, the server's warnings then, and the messages of it
 * the quarantine set aside without keeping them.
 */
function storyOf(
  report: MissingReport,
  context: {
    dropOffs: readonly { machineId: string; at: number }[];
    brokerLog: readonly string[];
    servers: readonly ServerProcess[];
    ledger: LedgerReading;
  },
): string[] {
  const near = (at: number) => Math.abs(at - report.ts) <= CONTEXT_MS;
  const seconds = (at: number) => `${formatNumber((at - report.ts) / 1000, 1)} s`;
  const lines = [`${report.machineId} at ${new Date(report.ts).toISOString()}:`];
  const unkept = context.ledger.setAsideUnkept.get(report.machineId);
  if (unkept) lines.push(`  the quarantine set aside ${unkept} of its messages without keeping them: it may be one`);
  for (const dropOff of context.dropOffs) {
    if (dropOff.machineId === report.machineId && near(dropOff.at)) {
      lines.push(`  dropped off ${seconds(dropOff.at)} from it, back ${AWAY_MS / 1000} s later`);
    }
  }
  // Mosquitto's lines start with the time in seconds since the epoch; the nearest few, in order.
  const brokerLines = context.brokerLog
    .filter((line) => line.includes(report.machineId) || line.includes('dropped'))
    .map((line) => ({ at: Number.parseInt(line, 10) * 1000, text: line.slice(line.indexOf(':') + 2, 200) }))
    .filter(({ at }) => near(at))
    .sort((a, b) => Math.abs(a.at - report.ts) - Math.abs(b.at - report.ts))
    .slice(0, BROKER_LINES_PER_REPORT)
    .sort((a, b) => a.at - b.at);
  for (const { at, text } of brokerLines) lines.push(`  broker, ${seconds(at)}: ${text}`);
  for (const [index, instance] of context.servers.entries()) {
    for (const line of complaints(instance).warnings) {
      const at = Number(/"time":(\d+)/.exec(line)?.[1]);
      if (near(at)) lines.push(`  server ${index + 1}, ${seconds(at)}: ${line.slice(0, 200)}`);
    }
  }
  if (lines.length === 1) lines.push('  nothing logged or done around it');
  return lines;
}

const reportsReceived = async (instance: ServerProcess) => (await readHealth(instance))?.reportsReceived;

runBenchmark('fleet', (options.warmUpSeconds + options.minutes * 60 + 3600) * 1000, async () => {
  if (options.broker) throw new Error('--broker: the benchmark starts a Mosquitto of its own, with dynamic security');
  const machines = Math.round(options.machines);
  const processes = Math.max(1, Math.min(Math.round(options.processes), machines));
  const farmers = Math.max(0, options.users - options.dealers);
  const instances = Math.max(1, Math.round(options.instances));
  if (options.killAtMinute > 0 && instances < 2) throw new Error('--killAtMinute needs --instances 2 or more');
  if (options.killAtMinute >= options.minutes) throw new Error('--killAtMinute must fall within --minutes');
  printTitle(
    `A dealer's fleet: ${formatNumber(machines)} controllers on ${instances === 1 ? 'one server' : `${instances} server instances`}`,
    {
      server:
        instances === 1
          ? 'the compiled server (npm start) in a process of its own'
          : `${instances} compiled servers (npm start), each in a process of its own, MQTT_SHARED_GROUP splitting the reports${options.killAtMinute > 0 ? `; the last killed (SIGKILL) ${options.killAtMinute} min into the measuring, started again ${DOWN_MS / 1000} s later` : ''}`,
      broker: 'Mosquitto 2 with dynamic security, accounts kept by the server (MQTT_DEVICE_AUTH=mosquitto-dynsec)',
      database: `PostgreSQL, scratch database on ${options.database ?? DEFAULT_DATABASE}`,
      fleet: `${formatNumber(machines)} machines in ${processes} processes; ${options.movingPercent} % watering (a report every 5 s), the rest at rest (every 60 s)${options.peripherals ? ', each with a weather station and 2–4 soil probes (every 60 s)' : ''}`,
      misbehaving: `${options.alarmsPerMinute} alarms and ${options.dropOffsPerMinute} drop-offs (${AWAY_MS / 1000} s away) a minute`,
      users: `${options.users} signed in (${options.dealers} administrators seeing every machine, ${farmers} farmers with a share each), list and alert streams open, the table's first page and a machine page every ${options.browseSeconds} s`,
      measured: `${options.minutes} min after ${options.warmUpSeconds} s of warm-up`,
    },
  );

  const adminPassword = `${randomBytes(12).toString('base64url')}-Aa1!`;
  const setting = await startSetting(adminPassword, instances);
  const brokerWatch = await BrokerWatch.start(setting.mosquitto.url, setting.mosquitto.admin).catch(
    async (error: unknown) => {
      await stopSetting(setting);
      throw error;
    },
  );
  const shares: ChildScript<ShareRequest, ShareEvent>[] = [];
  const usersProcess = ChildScript.start<UsersRequest, UsersEvent>(
    new URL('support/fleet-users-process.ts', import.meta.url),
  );
  try {
    const { servers, mosquitto } = setting;
    const server = servers[0]!;
    // The killed instance serves no user: a balancer would send its users to the others.
    const victim = options.killAtMinute > 0 ? servers.at(-1) : undefined;
    const usersServers = servers.filter((instance) => instance !== victim);
    const admin = new HttpSession(server.baseUrl);
    await admin.login(ADMIN_EMAIL, adminPassword);

    // Registering: each controller's account made on the broker, its secret handed back.
    printSection('Setting up');
    const idPrefix = `F${randomBytes(3).toString('hex').toUpperCase()}-`;
    const machineIds = Array.from({ length: machines }, (_, index) => siteId(idPrefix, 'SIM', index + 1));
    const credentials: Credentials = {};
    const storedCount = async () =>
      Number(
        (
          await setting.pool.query<{ rows: string }>(
            `select count(*) as rows from telemetry where machine_id like $1`,
            [`${idPrefix}%`],
          )
        ).rows[0]!.rows,
      );
    const registerStart = performance.now();
    const brokerBefore = await cpuSeconds(mosquitto.pid());
    const registerMs = await forEachAtOnce(machineIds, options.callsAtOnce, async (machineId) => {
      const answer = await admin.call('POST', '/api/device/', { machineId });
      credentials[machineId] = DeviceSecretResponseSchema.parse(
        expectStatus(answer, 201, `registering ${machineId}`),
      ).secret;
    });
    const registeredIn = performance.now() - registerStart;
    const brokerSeconds = (await cpuSeconds(mosquitto.pid())) - brokerBefore;
    printFigure(
      `registering ${formatNumber(machines)} controllers`,
      `${formatNumber(registeredIn / 1000, 1)} s, ${options.callsAtOnce} at a time (a call: ${describeLatency(summarise(registerMs))})`,
    );
    printFigure(
      'Mosquitto CPU while registering',
      `${formatNumber(brokerSeconds, 1)} s (${formatNumber((brokerSeconds / machines) * 1000, 1)} ms a controller, growing with the account file)`,
    );
    const dynsecBytes = (await stat(mosquitto.dynsecFile)).size;
    printFigure(
      'Mosquitto account file',
      `${formatNumber(dynsecBytes / 1e6, 1)} MB, rewritten whole at each change (${formatNumber(dynsecBytes / machines)} B a controller)`,
    );

    // The controllers, in processes of their own.
    const perShare = Math.ceil(machines / processes);
    const connectStart = performance.now();
    await Promise.all(
      Array.from({ length: processes }, async (_, index) => {
        const from = index * perShare + 1;
        const to = Math.min(machines, (index + 1) * perShare) + 1;
        const share = ChildScript.start<ShareRequest, ShareEvent>(
          new URL('support/fleet-share-process.ts', import.meta.url),
        );
        shares.push(share);
        const ids = machineIds.slice(from - 1, to - 1);
        await share.ask(
          {
            type: 'start',
            brokerUrl: mosquitto.url,
            idPrefix,
            fleetSize: machines,
            from,
            to,
            movingShare: options.movingPercent / 100,
            peripherals: options.peripherals > 0,
            credentials: Object.fromEntries(ids.map((id) => [id, credentials[id]!])),
          },
          'started',
        );
      }),
    );
    printFigure('controllers connected', `${formatNumber((performance.now() - connectStart) / 1000, 1)} s`);

    // Added through the API (the server asks each controller who it is) and granted.
    const sprinklerIds = new Map<string, number>();
    const addStart = performance.now();
    let addedAgain = 0;
    const addMs = await forEachAtOnce(machineIds, options.callsAtOnce, async (internalId) => {
      for (let tried = 1; ; tried += 1) {
        const answer = await answerOrWhyNot(admin.call('POST', '/api/sprinkler/', { internalId }));
        if (answer.status === 201) {
          sprinklerIds.set(internalId, SprinklerListItemSchema.parse(answer.body).id);
          return;
        }
        // An earlier try added it, its answer lost on the way.
        const added = tried > 1 && answer.status === 409 && (await findSprinklerByInternalId(setting.db, internalId));
        if (added) {
          sprinklerIds.set(internalId, added.id);
          return;
        }
        if (tried === ADD_TRIES)
          throw new Error(`adding ${internalId}: ${tried} tries, the last answered ${describeAnswer(answer)}`);
        addedAgain += 1;
        printNote(
          `  adding ${internalId} answered ${describeAnswer(answer)}; trying again in ${ADD_AGAIN_AFTER_MS / 1000} s`,
        );
        await sleep(ADD_AGAIN_AFTER_MS);
      }
    });
    const addedIn = performance.now() - addStart;
    printFigure(
      `adding ${formatNumber(machines)} machines`,
      `${formatNumber(addedIn / 1000, 1)} s through the API (${formatNumber(machines / (addedIn / 1000), 1)} /s), ${options.callsAtOnce} at a time (a machine: ${describeLatency(summarise(addMs))}); ${addedAgain} tries again`,
    );

    const hash = await new PasswordHasher().hash(USER_PASSWORD);
    const users: { id: number; email: string; admin: boolean; sprinklerIds: number[] }[] = [];
    for (let index = 0; index < options.users; index += 1) {
      const isDealer = index < options.dealers;
      const row = await insertUser(setting.db, {
        firstName: isDealer ? 'Dealer' : 'Farmer',
        lastName: `${index + 1}`,
        email: `user${index + 1}@fleet.bench`,
        passwordHash: hash,
        activatedAt: new Date(),
        admin: isDealer,
      });
      users.push({ id: row.id, email: row.email, admin: isDealer, sprinklerIds: [] });
    }
    // Each farmer is granted every so many machines: machine n goes to farmer n mod farmers.
    const farmerUsers = users.filter((user) => !user.admin);
    const grantStart = performance.now();
    if (farmerUsers.length > 0) {
      await forEachAtOnce([...machineIds.keys()], options.callsAtOnce, async (index) => {
        const farmer = farmerUsers[index % farmerUsers.length]!;
        const sprinklerId = sprinklerIds.get(machineIds[index]!)!;
        expectStatus(
          await admin.call('PATCH', `/api/sprinkler/${sprinklerId}/permissions/`, { user: farmer.id, action: 'grant' }),
          200,
          'granting access',
        );
        farmer.sprinklerIds.push(sprinklerId);
      });
    }
    for (const user of users) if (user.admin) user.sprinklerIds = [...sprinklerIds.values()];
    printFigure('machines granted', `${formatNumber((performance.now() - grantStart) / 1000, 1)} s through the API`);
    expectStatus(
      await admin.call('PUT', '/api/admin/alert-defaults/', { kinds: [...INCIDENT_KINDS], channels: ['in_app'] }),
      200,
      'alert defaults',
    );

    // Every machine added: the fleet reports from now on, each machine's first reports spread over their intervals.
    const receivedBefore = (await Promise.all(servers.map(reportsReceived))).reduce<number>(
      (sum, count) => sum + (count ?? Infinity),
      0,
    );
    printTargeted('reports received while setting up', receivedBefore, '', { atMost: 0 });
    printTargeted('reports stored while setting up', await storedCount(), '', { atMost: 0 });
    await Promise.all(shares.map((share) => share.ask({ type: 'report' }, 'reporting')));

    const sessions = await Promise.all(
      users.map(async (user, index) => {
        const { baseUrl } = usersServers[index % usersServers.length]!;
        const session = new HttpSession(baseUrl);
        await session.login(user.email, USER_PASSWORD);
        return { baseUrl, access: session.access!, sprinklerIds: user.sprinklerIds, admin: user.admin };
      }),
    );
    await usersProcess.ask({ type: 'start', users: sessions, browseEveryMs: options.browseSeconds * 1000 }, 'started');

    await sleep(options.warmUpSeconds * 1000);

    // Measuring.
    const counts = async () => {
      const answers = await Promise.all(shares.map((share) => share.ask({ type: 'count' }, 'count')));
      return {
        acknowledged: answers.reduce((sum, answer) => sum + answer.acknowledged, 0),
        connected: answers.reduce((sum, answer) => sum + answer.connected, 0),
      };
    };
    await usersProcess.ask({ type: 'measure' }, 'measuring');
    const started = {
      at: Date.now(),
      sent: (await counts()).acknowledged,
      bytes: await setting.database.sizeBytes(),
      tables: await tableSizes(setting.pool),
    };
    const pidOf = (instance: ServerProcess) => instance.child()?.pid;
    const serverCpu = await Promise.all(servers.map((instance) => CpuMeter.start([pidOf(instance)])));
    const brokerCpu = await CpuMeter.start([mosquitto.pid()]);
    const loadCpu = await CpuMeter.start([...shares.map((share) => share.pid), usersProcess.pid]);
    const rss: number[][] = servers.map(() => []);
    /** Each instance's memory as its health told it when it was the most resident. */
    const memoryAtPeak: (Health['memoryMb'] | undefined)[] = servers.map(() => undefined);
    const looks: Health['incidentLookMs'][] = [];
    const problems = new Set<string>();
    const receivedAtStart = await Promise.all(servers.map(reportsReceived));
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const [index, instance] of servers.entries()) {
          rss[index]!.push(await residentMegabytes(pidOf(instance)));
          const health = await readHealth(instance);
          if (!health) continue;
          looks.push(health.incidentLookMs);
          if (health.memoryMb.resident > (memoryAtPeak[index]?.resident ?? 0)) memoryAtPeak[index] = health.memoryMb;
          for (const problem of health.problems) problems.add(problem.split(':')[0]!);
        }
        await sleep(SAMPLE_EVERY_MS);
      }
    })();

    const alarms: { sprinklerId: number; at: number }[] = [];
    /** Each drop-off's machine and when it went (it comes back AWAY_MS later), for the ledger's story of a missing report. */
    const dropOffs: { machineId: string; at: number }[] = [];
    let killing: { killedAt: number; backAfterMs: number } | undefined;
    const endAt = started.at + options.minutes * 60_000;
    const misbehave = async (everyMs: number, act: (share: ChildScript<ShareRequest, ShareEvent>) => Promise<void>) => {
      if (!Number.isFinite(everyMs)) return;
      for (let turn = 0; Date.now() + everyMs < endAt; turn += 1) {
        await sleep(everyMs);
        await act(shares[turn % shares.length]!);
      }
    };
    await Promise.all([
      misbehave(60_000 / options.alarmsPerMinute, async (share) => {
        const event = await share.ask({ type: 'alarm' }, 'alarmed');
        if (event.machineId !== null) alarms.push({ sprinklerId: sprinklerIds.get(event.machineId)!, at: event.at });
      }),
      misbehave(60_000 / options.dropOffsPerMinute, async (share) => {
        const event = await share.ask({ type: 'drop-off', awayMs: AWAY_MS }, 'dropped');
        if (event.machineId !== null) dropOffs.push({ machineId: event.machineId, at: Date.now() });
      }),
      sleep(endAt - Date.now()),
      victim &&
        (async () => {
          await sleep(started.at + options.killAtMinute * 60_000 - Date.now());
          await victim.kill();
          const killedAt = Date.now();
          await sleep(DOWN_MS);
          await victim.restart();
          killing = { killedAt, backAfterMs: Date.now() - killedAt };
        })(),
    ]);
    const ended = {
      at: Date.now(),
      sent: (await counts()).acknowledged,
      bytes: await setting.database.sizeBytes(),
      tables: await tableSizes(setting.pool),
      connected: (await counts()).connected,
    };
    const cpu = {
      // A killed instance's CPU before its death went with its process: only the others' is whole.
      servers: await Promise.all(serverCpu.map((meter) => meter.percentOfCore())),
      broker: await brokerCpu.percentOfCore(),
    };
    const receivedAtEnd = await Promise.all(servers.map(reportsReceived));
    const loadGenerator = await loadCpu.percentOfCore();
    sampling = false;
    await sampler;

    // Alerts still on their way, then the fleet stops and the server stores the rest.
    const expectedAlerts = (sprinklerId: number) =>
      users.flatMap((user, index) => (user.sprinklerIds.includes(sprinklerId) ? [index] : []));
    const alertDeadline = Date.now() + ALERTS_WITHIN_MS;
    let heard = await usersProcess.ask({ type: 'results' }, 'results');
    const allHeard = () =>
      alarms.every(({ sprinklerId }) =>
        expectedAlerts(sprinklerId).every((user) =>
          heard.alarms.some((alert) => alert.sprinklerId === sprinklerId && alert.user === user),
        ),
      );
    while (!allHeard() && Date.now() < alertDeadline) {
      await sleep(500);
      heard = await usersProcess.ask({ type: 'results' }, 'results');
    }
    const memoryAtEnd = await Promise.all(servers.map((instance) => memoryParts(pidOf(instance))));
    const snapshots = options.heapSnapshot > 0 ? await Promise.all(servers.map(snapshotOf)) : [];
    await usersProcess.ask({ type: 'stop' }, 'stopped');
    const sentTotal = (await Promise.all(shares.map((share) => share.ask({ type: 'stop' }, 'stopped')))).reduce(
      (sum, answer) => sum + answer.acknowledged,
      0,
    );
    const settling = await settle(servers, brokerWatch, storedCount);
    const stored = await storedCount();
    const acknowledged = new AcknowledgedReports();
    for (const share of shares) acknowledged.receive((await share.ask({ type: 'ledger' }, 'ledger')).reports);
    const ledger = await readLedger(
      async <Row>(text: string, values: unknown[]) => (await setting.pool.query(text, values)).rows as Row[],
      acknowledged,
    );
    const brokerLog = await brokerLogLines(
      mosquitto.logFile,
      new Set(ledger.missing.slice(0, NAMED_MISSING).map((report) => report.machineId)),
    );
    const finalHealth = await Promise.all(servers.map(readHealth));

    const seconds = (ended.at - started.at) / 1000;
    printSection(
      `The server${instances === 1 ? ` (pid ${pidOf(server)})` : ` instances`} over ${formatNumber(seconds / 60, 1)} min`,
    );
    const receivedInWindow = servers.map((_, index) => (receivedAtEnd[index] ?? 0) - (receivedAtStart[index] ?? 0));
    const receivedTotal = receivedInWindow.reduce((sum, count) => sum + count, 0);
    for (const [index, instance] of servers.entries()) {
      const name = instances === 1 ? 'server' : `instance ${index + 1}`;
      if (instance === victim && killing) {
        printFigure(
          name,
          `killed (SIGKILL) ${formatNumber((killing.killedAt - started.at) / 60_000, 1)} min in, answering again ${formatNumber(killing.backAfterMs / 1000, 1)} s later; ${formatNumber(receivedAtEnd[index] ?? 0)} reports received since`,
        );
        continue;
      }
      printTargeted(`${name} CPU`, cpu.servers[index]!, '% of a core', { atMost: TARGETS.cpuPercent }, 1);
      printTargeted(`${name} RSS, highest`, Math.max(...rss[index]!), 'MB', { atMost: TARGETS.rssMb });
      const peak = memoryAtPeak[index];
      if (peak) {
        printFigure(
          `${name} memory at its highest`,
          `${formatNumber(peak.resident)} MB resident: V8's heap ${formatNumber(peak.heapTotal)} MB (${formatNumber(peak.heapUsed)} MB of it used, live or not yet collected), buffers ${formatNumber(peak.external)} MB`,
        );
      }
      const memory = memoryAtEnd[index]!;
      printFigure(
        `${name} RSS, at the end`,
        `${formatNumber(rss[index]!.at(-1) ?? 0)} MB: ${formatNumber(memory.anonymousMb)} MB the process's own (V8's heap, buffers, native), ${formatNumber(memory.fileMb)} MB mapped files, ${formatNumber(memory.sharedMb)} MB shared`,
      );
      if (instances > 1) {
        printFigure(
          `${name} share of the reports`,
          `${formatNumber(receivedInWindow[index]!)} received (${formatNumber((receivedInWindow[index]! / Math.max(1, receivedTotal)) * 100, 1)} %)`,
        );
      }
    }
    printFigure('Mosquitto CPU', `${formatNumber(cpu.broker, 1)} % of a core`);
    printFigure('load generator CPU (apart)', `${formatNumber(loadGenerator, 1)} % of a core`);
    printFigure(
      'load generator RSS at the end',
      `bench ${formatNumber(await residentMegabytes(process.pid))} MB, controllers ${(await Promise.all(shares.map((share) => residentMegabytes(share.pid)))).map((mb) => formatNumber(mb)).join(' + ')} MB, users ${formatNumber(await residentMegabytes(usersProcess.pid))} MB`,
    );
    const lookP95s = looks.flatMap((look) => (look.p95 === null ? [] : [look.p95]));
    const lookMaxes = looks.flatMap((look) => (look.max === null ? [] : [look.max]));
    printFigure(
      'incident look (per minute)',
      lookP95s.length > 0
        ? `p95 ${formatNumber(Math.min(...lookP95s))}–${formatNumber(Math.max(...lookP95s))} ms, max ${formatNumber(Math.max(...lookMaxes))} ms, ${formatNumber(looks.at(-1)?.looks ?? 0)} looks in the last minute`
        : 'no looks',
    );
    printFigure('health problems seen', problems.size > 0 ? [...problems].join(', ') : 'none');

    printSection('Reports');
    const sentInWindow = ended.sent - started.sent;
    printFigure(
      'sent while measured',
      `${formatNumber(sentInWindow)} (${formatNumber(sentInWindow / seconds)} /s, acknowledged by the broker)`,
    );
    printFigure('sent in all, warm-up included', formatNumber(sentTotal));
    printFigure('stored in all', formatNumber(stored));
    printFigure('machines connected at the end', `${formatNumber(ended.connected)} of ${formatNumber(machines)}`);
    const live = summariseSome(heard.liveMs);
    printFigure(
      'list stream events',
      `${formatNumber(heard.liveEvents)} telemetry events on ${options.users} streams (${formatNumber(heard.liveEvents / seconds)} /s)`,
    );
    printFigure('report → list stream', describeLatency(live));
    printTargeted('live p95', live?.p95 ?? Infinity, 'ms', { below: TARGETS.liveP95Ms });
    printFigure('streams that ended on their own', formatNumber(heard.streamsEnded));

    printSection('Report ledger: every acknowledged report looked for by machine and ts');
    printFigure(
      'settling',
      settling.gaveUp === undefined
        ? `${formatNumber(settling.ms / 1000, 1)} s until the server had nothing unstored and received nothing, and the stored count stood still, for ${SETTLED_MS / 1000} s`
        : `gave up after ${SETTLE_WITHIN_MS / 1000} s: ${settling.gaveUp}`,
    );
    for (const line of describeLedger(ledger)) printNote(`  ${line}`);
    const brokerFigures = brokerWatch.latest();
    printFigure(
      'dropped by the broker',
      brokerFigures
        ? `${formatNumber(brokerFigures.dropped)} publishes (a subscriber's queue full); ${formatNumber(brokerFigures.stored - brokerFigures.retained)} messages held beyond the retained ones at the end`
        : 'unknown (no $SYS figures)',
    );
    printFigure(
      'dropped, no controller registered',
      formatNumber(finalHealth.reduce((sum, health) => sum + (health?.unregisteredReportsDropped ?? 0), 0)),
    );
    for (const report of ledger.missing.slice(0, NAMED_MISSING)) {
      for (const line of storyOf(report, { dropOffs, brokerLog, servers, ledger })) printNote(`  ${line}`);
    }
    printTargeted('lost (found nowhere)', ledger.missing.length, '', { atMost: TARGETS.lost });

    printSection(`Alarms: ${alarms.length} raised, ${dropOffs.length} drop-offs`);
    const alertMs: number[] = [];
    let missing = 0;
    for (const alarm of alarms) {
      for (const user of expectedAlerts(alarm.sprinklerId)) {
        const arrivals = heard.alarms.filter((alert) => alert.sprinklerId === alarm.sprinklerId && alert.user === user);
        if (arrivals.length === 0) missing += 1;
        else alertMs.push(Math.min(...arrivals.map((alert) => alert.at)) - alarm.at);
      }
    }
    const alerts = summariseSome(alertMs);
    printFigure('alarm → alert on the stream', describeLatency(alerts, 's'));
    printTargeted('alerts p95', alerts?.p95 ?? Infinity, 'ms', { below: TARGETS.alertP95Ms });
    printTargeted('alerts missing', missing, '', { atMost: 0 });

    printSection(
      "Pages: the machines table's first page, GET /api/sprinkler/page/ (list), and GET /api/sprinkler/{id}/ (detail)",
    );
    for (const [role, pages] of Object.entries(heard.pagesMs)) {
      printFigure(`list, ${role}`, describeLatency(summariseSome(pages.listMs)));
      printFigure(`detail, ${role}`, describeLatency(summariseSome(pages.detailMs)));
    }
    // Issue 38: the dealers' every machine, list and page alike.
    const dealers = heard.pagesMs.administrators;
    printTargeted("administrators' list p95", summariseSome(dealers.listMs)?.p95 ?? Infinity, 'ms', {
      below: TARGETS.dealerPageP95Ms,
    });
    printTargeted("administrators' detail p95", summariseSome(dealers.detailMs)?.p95 ?? Infinity, 'ms', {
      below: TARGETS.dealerPageP95Ms,
    });
    printVerdict('requests failed', formatNumber(heard.failures), '0', heard.failures === 0);

    printSection('PostgreSQL');
    const growth = ended.bytes - started.bytes;
    printFigure('database size at the end', `${formatNumber(ended.bytes / 1e6, 1)} MB`);
    const grown = [...ended.tables]
      .map(([name, bytes]) => ({ name, grew: bytes - (started.tables.get(name) ?? 0), bytes }))
      .sort((a, b) => b.grew - a.grew)
      .slice(0, 5);
    for (const table of grown) {
      printFigure(
        `  ${table.name}`,
        `${formatNumber(table.bytes / 1e6, 1)} MB, +${formatNumber(((table.grew / seconds) * 3600) / 1e6, 1)} MB an hour`,
      );
    }
    printFigure(
      'growth per hour',
      `${formatNumber(((growth / seconds) * 3600) / 1e6, 1)} MB (${formatNumber(growth / Math.max(1, sentInWindow), 0)} B a report)`,
    );
    for (const [index, instance] of servers.entries()) {
      const { warnings, errors } = complaints(instance);
      printFigure(
        `${instances === 1 ? 'server' : `instance ${index + 1}`} warnings and errors`,
        `${warnings.length} logged, ${errors.length} lines on stderr`,
      );
      for (const line of [...warnings, ...errors].slice(0, 5)) printNote(`  ${line.slice(0, 240)}`);
    }
    if (options.profile > 0) printNote(`The server's CPU profile is written into ${DIAGNOSTICS_DIR} as it stops.`);
    for (const snapshot of snapshots) printNote(snapshot);
  } catch (error) {
    // What the servers said last is what tells why the run broke.
    for (const [index, instance] of setting.servers.entries()) {
      const child = instance.child();
      const { warnings, errors } = complaints(instance);
      printNote(
        `instance ${index + 1}: ${child?.exitCode === null && child.signalCode === null ? 'running' : `ended (${child?.exitCode ?? child?.signalCode})`}`,
      );
      for (const line of [...warnings, ...errors].slice(-10)) printNote(`  ${line.slice(0, 400)}`);
    }
    throw error;
  } finally {
    await brokerWatch.stop();
    await usersProcess.end();
    await Promise.all(shares.map((share) => share.end()));
    await stopSetting(setting);
  }
});
