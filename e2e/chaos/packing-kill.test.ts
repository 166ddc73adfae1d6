import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { expect, inject, it, onTestFinished } from 'vitest';
import { scratchDatabase, startServer } from '../support/server-process';
import { recordFigures } from './support/figures';
import { SERVER_ENV, until } from './support/product';

/**
 * The packing of past days (the telemetry module's packing) under a kill -9 and under two instances at once,
 * on PostgreSQL. Each scenario seeds MACHINES machines' reports of DAYS past days (every 30 s),
 * the first days in the DEFAULT partition (rows deleted as packed), the last ones in day
 * partitions (dropped whole once packed), and then compares, report by report, what the
 * machines' packed days hold with what was seeded: none lost, none twice.
 */
const MACHINES = 12;
const DAYS = 8;
const FIRST_DAY = '2026-11-01';
const PARTITIONED_FROM = '2026-11-05';
const DATES = Array.from({ length: DAYS }, (_, index) =>
  new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10),
);
const MACHINE_DAYS = MACHINES * DAYS;
/**
 * The packing's first run is 30 s after a start; a run of these machine-days takes a while on two
 * busy cores (more than 150 s once, beside the other suites at load 9).
 */
const PACKED_WITHIN_MS = 240_000;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

type Unpack = (packed: Uint8Array) => { ts: number; angle: number }[];
/** The server's own codec, loaded at run time: the server's type graph is not this project's to check. */
const PACKED_DAY_MODULE = fileURLToPath(
  new URL('../../apps/server/src/modules/telemetry/packed-day.ts', import.meta.url),
);
let unpackDay: Unpack | undefined;
async function codec(): Promise<Unpack> {
  unpackDay ??= ((await import(/* @vite-ignore */ PACKED_DAY_MODULE)) as { unpackDay: Unpack }).unpackDay;
  return unpackDay;
}

/** The machines' reports as `ts angle`, per machine, oldest first: what a comparison needs. */
type Reports = Map<string, string[]>;

async function seed(url: string): Promise<Reports> {
  return withClient(url, async (client) => {
    for (const date of DATES.filter((day) => day >= PARTITIONED_FROM)) {
      const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();
      await client.query(
        `create table telemetry_p${date.replaceAll('-', '')} partition of telemetry
         for values from ('${date}T00:00:00Z') to ('${next}')`,
      );
    }
    await client.query(
      `insert into machine_state (machine_id) select 'chaos-pack-' || m from generate_series(1, $1::int) m`,
      [MACHINES],
    );
    await client.query(
      `insert into telemetry (machine_id, ts, status, angle, distance, speed, pressure, flow)
       select 'chaos-pack-' || m, ts, 'front', ((extract(epoch from ts)::bigint / 30 + m * 7) % 36000) / 100.0,
              300, 50, 2.5, 72
       from generate_series(1, $1::int) m,
            generate_series($2::timestamptz, $3::timestamptz, interval '30 seconds') ts`,
      [MACHINES, `${FIRST_DAY}T00:00:00Z`, `${DATES.at(-1)}T23:59:30Z`],
    );
    return readAll(client);
  });
}

/** Every report of the machines, rows and packed days alike, each once per form it is kept in. */
async function readAll(client: pg.Client): Promise<Reports> {
  const reports: Reports = new Map();
  const add = (machineId: string, line: string) => {
    const list = reports.get(machineId) ?? [];
    list.push(line);
    reports.set(machineId, list);
  };
  const rows = await client.query<{ machine_id: string; ts: Date; angle: number }>(
    `select machine_id, ts, angle from telemetry where machine_id like 'chaos-pack-%' order by machine_id, ts`,
  );
  for (const row of rows.rows) add(row.machine_id, `${row.ts.getTime()} ${row.angle}`);
  const days = await client.query<{ machine_id: string; packed: Buffer }>(
    `select machine_id, packed from telemetry_days order by machine_id, day`,
  );
  const unpack = await codec();
  for (const day of days.rows) {
    for (const report of unpack(new Uint8Array(day.packed))) add(day.machine_id, `${report.ts} ${report.angle}`);
  }
  for (const list of reports.values()) list.sort();
  return reports;
}

async function packedCount(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const result = await client.query<{ n: number }>('select count(*)::int as n from telemetry_days');
    return result.rows[0]!.n;
  });
}

/** Whether every machine-day is packed, no row of them is left, and their day partitions are gone. */
async function allPacked(url: string): Promise<boolean> {
  return withClient(url, async (client) => {
    const result = await client.query<{ packed: number; rows: number; partitions: number }>(
      `select (select count(*)::int from telemetry_days) as packed,
              (select count(*)::int from telemetry where machine_id like 'chaos-pack-%') as rows,
              (select count(*)::int from pg_inherits join pg_class on pg_class.oid = inhrelid
                where inhparent = 'telemetry'::regclass and relname between 'telemetry_p20261101' and 'telemetry_p20261108')
                as partitions`,
    );
    const { packed, rows, partitions } = result.rows[0]!;
    return packed === MACHINE_DAYS && rows === 0 && partitions === 0;
  });
}

function total(reports: Reports): number {
  let count = 0;
  for (const list of reports.values()) count += list.length;
  return count;
}

/** Seeds a scratch database with the server's schema (one start and stop of a server on it). */
async function seededDatabase(): Promise<{ url: string; seeded: Reports }> {
  const database = await scratchDatabase(inject('chaosPostgresUrl'));
  onTestFinished(() => database.drop());
  const first = await startServer({ ...SERVER_ENV, DATABASE_URL: database.url, TIME_ZONE: 'UTC' });
  await first.stop();
  const seeded = await seed(database.url);
  expect(total(seeded)).toBe(MACHINE_DAYS * 2880);
  return { url: database.url, seeded };
}

it('k. the packing killed (kill -9) mid-way and started again: every report packed once, none lost', async () => {
  const { url, seeded } = await seededDatabase();
  const server = await startServer({ ...SERVER_ENV, DATABASE_URL: url, TIME_ZONE: 'UTC' });
  onTestFinished(() => server.stop());
  expect(await until(async () => (await packedCount(url)) >= 5, PACKED_WITHIN_MS)).toBe(true);
  await server.kill();
  const packedAtKill = await packedCount(url);
  // Mid-way: some machine-days packed, most not yet.
  expect(packedAtKill).toBeLessThan(MACHINE_DAYS);
  const midway = await withClient(url, readAll);
  await server.restart();
  expect(await until(() => allPacked(url), PACKED_WITHIN_MS)).toBe(true);
  const after = await withClient(url, readAll);
  const lost = total(seeded) - total(after);
  await recordFigures(inject('chaosFiguresDir'), {
    key: 'k',
    scenario: 'k. packing killed (kill -9) mid-way and resumed',
    reportsAcknowledged: total(seeded),
    reportsLost: Math.max(0, lost),
    note: `${packedAtKill} of ${MACHINE_DAYS} machine-days packed at the kill; ${total(after)} reports after, each once`,
  });
  // Rows of a day partition stay beside their packed day until it is dropped: at the kill, a report
  // may be in both forms, never in neither.
  for (const [machineId, reports] of seeded) {
    expect(new Set(midway.get(machineId)), machineId).toEqual(new Set(reports));
  }
  expect(after).toEqual(seeded);
}, 600_000);

it('l. two instances packing at once: each machine-day packed once, every report once', async () => {
  const { url, seeded } = await seededDatabase();
  const servers = await Promise.all(
    ['chaos-pack-one', 'chaos-pack-two'].map((id) =>
      startServer({ ...SERVER_ENV, DATABASE_URL: url, TIME_ZONE: 'UTC', SERVER_ID: id, LOG_LEVEL: 'info' }),
    ),
  );
  for (const server of servers) onTestFinished(() => server.stop());
  const packedInTime = await until(() => allPacked(url), PACKED_WITHIN_MS);
  // It has once run out of time in the full run (and not alone): what each instance was doing then.
  const whereEach = packedInTime
    ? ''
    : `${await packedCount(url)} of ${MACHINE_DAYS} machine-days packed; each instance's last lines:\n` +
      servers
        .map((server) => [...server.output().split('\n').slice(-12), server.errors().slice(-2000)].join('\n'))
        .join('\n---\n');
  expect(packedInTime, whereEach).toBe(true);
  // Each instance logs how many machine-days it packed: together, each machine-day once.
  const packedByEach = () =>
    servers.map((server) =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"telemetry packed"'))
        .reduce((sum, line) => sum + ((JSON.parse(line) as { packedDays?: number }).packedDays ?? 0), 0),
    );
  // A run's line is logged after its days are committed, and on two busy cores it can reach this
  // process a while after the database shows them packed: it is counted once both have stopped.
  await until(() => packedByEach().reduce((sum, days) => sum + days) >= MACHINE_DAYS, 30_000);
  await Promise.all(servers.map((server) => server.terminate()));
  const packedBy = packedByEach();
  const after = await withClient(url, readAll);
  await recordFigures(inject('chaosFiguresDir'), {
    key: 'l',
    scenario: 'l. two instances packing the same days at once',
    reportsAcknowledged: total(seeded),
    reportsLost: Math.max(0, total(seeded) - total(after)),
    note: `machine-days packed by each: ${packedBy.join(' + ')} of ${MACHINE_DAYS}`,
  });
  expect(packedBy[0]! + packedBy[1]!).toBe(MACHINE_DAYS);
  expect(after).toEqual(seeded);
}, 600_000);
