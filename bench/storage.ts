/**
 * Storage of a machine's reports (issue 22): simulated days of a 420 m pivot (about 11,000
 * reports a day, the simulator's), stored as rows of the day-partitioned `telemetry` table and
 * then packed into `telemetry_days`, on the embedded PGlite and on PostgreSQL (`--database`,
 * default the loopback server; a scratch database of its own). Prints the bytes a report takes
 * as a row (indexes included) and packed (row, TOAST and index of `telemetry_days` included),
 * and what a season of `--seasonDays` days comes to each way.
 * Target: ≤ 15 bytes a packed report on disk, indexes included.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { type DatabaseHandle, openPglite, openPostgres } from '@pivot/server/src/db/client';
import { packDay } from '@pivot/server/src/modules/telemetry/packed-day';
import { insertPackedDay } from '@pivot/server/src/modules/telemetry/telemetry-packing.repository';
import { TelemetryPartitions } from '@pivot/server/src/modules/telemetry/telemetry-partitions';
import { dayOfYear } from '@pivot/server/src/modules/watermap/day-of-year';
import { RoundGrid } from '@pivot/server/src/modules/watermap/round-grid';
import { WATER_GRID_STEP_M, WRITE_EVERY_MS } from '@pivot/server/src/modules/watermap/water-accounting';
import { sweptWedge, waterOnWedge } from '@pivot/server/src/modules/watermap/water-grid';
import { addWater } from '@pivot/server/src/modules/watermap/watermap.repository';
import { simulateDay } from '@pivot/simulator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { readOptions } from './support/cli';
import { formatNumber, printFigure, printNote, printSection, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { summarise } from './support/stats';

const TARGET_BYTES_PER_PACKED_REPORT = 15;
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const MACHINE_ID = 'bench-storage';
const FIRST_DAY = Date.UTC(2026, 5, 1);
const options = readOptions({ days: 10, seasonDays: 180, liveHours: 3 });
/** Days packing waits (TELEMETRY_PACK_AFTER_DAYS) plus today: the rows a machine keeps at a time. */
const DAYS_AS_ROWS = 3;
const GOAL_SEASON_MB = 40;

type Report = ReturnType<typeof simulateDay>[number];

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

async function number(handle: DatabaseHandle, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = rowsOf(await handle.db.execute(query));
  return Number(row?.value ?? 0);
}

/** Bytes on disk of the report rows: every partition, its indexes and TOAST. */
function rowBytes(handle: DatabaseHandle): Promise<number> {
  return number(
    handle,
    sql`select coalesce(sum(pg_total_relation_size(relid)), 0) as value from pg_partition_tree('telemetry') where isleaf`,
  );
}

async function insertDay(handle: DatabaseHandle, reports: Report[]): Promise<void> {
  for (let index = 0; index < reports.length; index += 2_000) {
    const chunk = reports.slice(index, index + 2_000);
    await handle.db.execute(sql`
      insert into telemetry (machine_id, ts, status, angle, distance, speed, pressure, flow)
      select ${MACHINE_ID}, to_timestamp(ms / 1000.0), status, angle, distance, speed, pressure, flow
      from unnest(
        ${`{${chunk.map((r) => r.ts).join(',')}}`}::float8[],
        ${`{${chunk.map((r) => r.status).join(',')}}`}::text[],
        ${`{${chunk.map((r) => r.angle).join(',')}}`}::float8[],
        ${`{${chunk.map((r) => r.distance).join(',')}}`}::float8[],
        ${`{${chunk.map((r) => r.speed).join(',')}}`}::float8[],
        ${`{${chunk.map((r) => r.pressure).join(',')}}`}::float8[],
        ${`{${chunk.map((r) => r.flow).join(',')}}`}::float8[]
      ) as report(ms, status, angle, distance, speed, pressure, flow)`);
  }
}

/** How often the accounting wrote a machine's water before issue 38 (a run every 15 s), for comparison. */
const ACCOUNTING_EVERY_RUN_MS = 15_000;
const DAY_MS = 86_400_000;
/** The accounting's cells a statement (ROWS_PER_WRITE) while it keeps up; the backlog's season in fewer, larger statements. */
const CELLS_PER_STATEMENT = 50;
const SEASON_CELLS_PER_STATEMENT = 2_000;

/**
 * A day's water as the accounting counts it, a round per `everyMs` of the day: each round the
 * cells its pairs of reports watered (a pair counts in the round of its first report).
 */
function roundsOfDay(reports: Report[], everyMs: number): RoundGrid[] {
  const rounds = new Map<number, RoundGrid>();
  for (let index = 1; index < reports.length; index += 1) {
    const from = reports[index - 1]!;
    const wedge = sweptWedge(from, reports[index]!, WATER_GRID_STEP_M);
    if (typeof wedge === 'string') continue;
    const slot = Math.floor((from.ts - reports[0]!.ts) / everyMs);
    let grid = rounds.get(slot);
    if (!grid) {
      grid = new RoundGrid();
      rounds.set(slot, grid);
    }
    waterOnWedge(wedge, WATER_GRID_STEP_M, (x, y, depth) => grid.add(x, y, depth));
  }
  return [...rounds.values()];
}

/** Writes a round as the accounting does: one transaction, a few dozen cells a statement. */
async function writeRound(
  handle: DatabaseHandle,
  date: Date,
  grid: RoundGrid,
  cellsPerStatement: number,
): Promise<void> {
  await handle.db.transaction(async (tx) => {
    for (let from = 0; from < grid.size; from += cellsPerStatement) {
      await addWater(tx, MACHINE_ID, dayOfYear(date), grid.rows(from, from + cellsPerStatement));
    }
  });
}

function walPosition(handle: DatabaseHandle): Promise<string> {
  return handle.db
    .execute(sql`select pg_current_wal_lsn()::text as value`)
    .then((result) => String(rowsOf(result)[0]!.value));
}

function walSince(handle: DatabaseHandle, position: string): Promise<number> {
  return number(handle, sql`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${position}::pg_lsn) as value`);
}

function gridTableBytes(handle: DatabaseHandle): Promise<number> {
  return number(handle, sql`select pg_total_relation_size('water_cell_years') as value`);
}

type SweepWrites = { rounds: number; cellWrites: number; wal: number; table: number; ms: number };

/** Writes the rounds on an empty grid, as the accounting would: the WAL, the table's size and the time. */
async function writeSweep(handle: DatabaseHandle, date: Date, rounds: RoundGrid[]): Promise<SweepWrites> {
  await handle.db.execute(sql`truncate water_cell_years`);
  await handle.db.execute(sql`checkpoint`);
  const walStart = await walPosition(handle);
  const start = performance.now();
  for (const round of rounds) await writeRound(handle, date, round, CELLS_PER_STATEMENT);
  return {
    rounds: rounds.length,
    cellWrites: rounds.reduce((sum, round) => sum + round.size, 0),
    wal: await walSince(handle, walStart),
    table: await gridTableBytes(handle),
    ms: performance.now() - start,
  };
}

/**
 * The water grid of the simulated machine, written through the accounting's own statements:
 * first `liveHours` hours of watering on an empty grid at the live accounting's pace (a round
 * of each machine every `WRITE_EVERY_MS`), the arm's first sweep, whose WAL and table growth
 * are the write volume, beside the same at the pace before (a round every 15 s); then the rest
 * of a season of `seasonDays` days from 1 April, each day the water of a simulated day (they
 * repeat), a round a day as a backlog is counted (the rows hold the same water however the
 * rounds split). The season's size is given vacuumed, and compacted as a table whose dead row
 * versions autovacuum has long reused (`vacuum full`).
 */
async function measureGrid(handle: DatabaseHandle, days: Report[][]): Promise<number> {
  const seasonStart = new Date(Date.UTC(2026, 3, 1));
  // The first `liveHours` hours of the first day's watering: the arm's first sweep over an empty grid.
  const firstWater = days[0]!.findIndex((report) => report.status !== 'stop' && report.flow > 0);
  const firstSweep = days[0]!.filter(
    (report, index) => index >= firstWater && report.ts <= days[0]![firstWater]!.ts + options.liveHours * 3_600_000,
  );
  // The hours the arm moved or watered in place (the water's hours): the first day's pairs counting water.
  const movingHours =
    firstSweep.reduce((sum, report, index) => {
      const before = firstSweep[index - 1];
      return before && before.status !== 'stop' && before.flow > 0 ? sum + (report.ts - before.ts) : sum;
    }, 0) / 3_600_000;
  const before = await writeSweep(handle, seasonStart, roundsOfDay(firstSweep, ACCOUNTING_EVERY_RUN_MS));
  const now = await writeSweep(handle, seasonStart, roundsOfDay(firstSweep, WRITE_EVERY_MS));

  for (let index = 1; index < options.seasonDays; index += 1) {
    const [round] = roundsOfDay(days[index % days.length]!, DAY_MS);
    if (round) {
      await writeRound(handle, new Date(seasonStart.getTime() + index * DAY_MS), round, SEASON_CELLS_PER_STATEMENT);
    }
  }
  await handle.db.execute(sql`vacuum analyze water_cell_years`);
  const seasonBytes = await gridTableBytes(handle);
  await handle.db.execute(sql`vacuum full water_cell_years`);
  const compactBytes = await gridTableBytes(handle);
  const rows = await number(handle, sql`select count(*) as value from water_cell_years`);

  const perHourAtScale = (bytes: number) => `${formatNumber(((bytes / movingHours) * 1e4) / 1e9, 2)} GB`;
  for (const [pace, writes] of [
    [`a round every ${formatNumber(WRITE_EVERY_MS / 60_000)} min`, now],
    ['a round every 15 s (before)', before],
  ] as const) {
    printFigure(
      `grid, first ${options.liveHours} h, ${pace}`,
      `${formatNumber(writes.rounds)} rounds, ${formatNumber(writes.cellWrites)} cell writes, ${formatNumber(writes.ms / 1000, 1)} s; WAL ${formatNumber(writes.wal / 1e6, 2)} MB, table ${formatNumber(writes.table / 1e6, 2)} MB (${formatNumber(movingHours, 1)} h moving)`,
    );
    printFigure(
      '  the same per hour moving, 10,000 machines',
      `WAL ${perHourAtScale(writes.wal)}, table ${perHourAtScale(writes.table)}`,
    );
  }
  printFigure(
    `grid, season (${options.seasonDays} d)`,
    `${formatNumber(seasonBytes / 1e6, 2)} MB vacuumed, ${formatNumber(compactBytes / 1e6, 2)} MB compacted (${formatNumber(rows)} cells, ${formatNumber(compactBytes / rows)} B each)`,
  );
  printFigure(
    `grid, season (${options.seasonDays} d), 10,000 machines`,
    `${formatNumber((compactBytes * 1e4) / 1e9, 1)} GB compacted, ${formatNumber((seasonBytes * 1e4) / 1e9, 1)} GB vacuumed`,
  );
  return compactBytes;
}

async function measure(kind: string, handle: DatabaseHandle, days: Report[][]): Promise<void> {
  const silent = { info: () => undefined, warn: () => undefined };
  const partitions = new TelemetryPartitions({
    db: handle.db,
    kind: handle.kind,
    timeZone: 'UTC',
    logger: silent as unknown as ConstructorParameters<typeof TelemetryPartitions>[0]['logger'],
  });
  const dates = days.map((_, index) => new Date(FIRST_DAY + index * 86_400_000).toISOString().slice(0, 10));
  for (const date of dates) await partitions.ensureDay(date);
  for (const day of days) await insertDay(handle, day);
  await handle.db.execute(sql`analyze`);
  const reports = await number(handle, sql`select count(*) as value from telemetry`);
  const asRows = await rowBytes(handle);

  const packStart = performance.now();
  for (const [index, day] of days.entries()) {
    await insertPackedDay(handle.db, {
      machineId: MACHINE_ID,
      day: dates[index]!,
      packed: packDay(day.map(({ alarm: _alarm, ...report }) => report)),
      reportCount: day.length,
      firstTs: new Date(day[0]!.ts),
      lastTs: new Date(day.at(-1)!.ts),
    });
  }
  const packMs = performance.now() - packStart;
  // Reports of today keep coming while the packed days' partitions go: the longest an insert took meanwhile.
  await partitions.ensureAhead();
  let ingesting = true;
  const insertTimes: number[] = [];
  const ingestion = (async () => {
    for (let sequence = 0; ingesting; sequence += 1) {
      const start = performance.now();
      await handle.db.execute(sql`
        insert into telemetry (machine_id, ts, status, angle, distance, speed, pressure, flow)
        values ('bench-storage-live', ${new Date(Date.now() + sequence).toISOString()}, 'front', 1, 300, 50, 2.5, 72)`);
      insertTimes.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const dropStart = performance.now();
  const dropped = await partitions.dropPacked(
    new Date(FIRST_DAY + days.length * 86_400_000).toISOString().slice(0, 10),
  );
  const dropMs = performance.now() - dropStart;
  await new Promise((resolve) => setTimeout(resolve, 200));
  ingesting = false;
  await ingestion;
  await handle.db.execute(sql`delete from telemetry where machine_id = 'bench-storage-live'`);
  await handle.db.execute(sql`analyze`);
  const packed = await number(handle, sql`select pg_total_relation_size('telemetry_days') as value`);
  const packedPayload = await number(handle, sql`select sum(octet_length(packed)) as value from telemetry_days`);
  const rowsLeft = await rowBytes(handle);

  const perDay = reports / days.length;
  const seasonRowsMb = ((asRows / reports) * perDay * options.seasonDays) / 1e6;
  const seasonPackedMb = ((packed / reports) * perDay * options.seasonDays) / 1e6;
  printSection(kind);
  printFigure('reports stored', `${formatNumber(reports)} (${formatNumber(perDay)} a day)`);
  printFigure('as rows, with indexes', `${formatNumber(asRows / reports, 1)} bytes a report`);
  printTargeted('packed, with row and index', packed / reports, 'B', { atMost: TARGET_BYTES_PER_PACKED_REPORT }, 2);
  printFigure('packed bytes alone', `${formatNumber(packedPayload / reports, 2)} bytes a report`);
  printFigure('packing a day', `${formatNumber(packMs / days.length, 0)} ms`);
  printFigure(
    'partitions dropped, packed',
    `${dropped.length} of ${days.length}; rows left ${formatNumber(rowsLeft / 1024, 0)} KB`,
  );
  printFigure(
    'dropping them; live inserts',
    `${formatNumber(dropMs, 0)} ms; ${insertTimes.length} inserts meanwhile, p50 ${formatNumber(summarise(insertTimes).p50, 1)} ms, max ${formatNumber(Math.max(...insertTimes), 1)} ms`,
  );
  printFigure(`season (${options.seasonDays} d), rows`, `${formatNumber(seasonRowsMb, 1)} MB`);
  printFigure(`season (${options.seasonDays} d), packed`, `${formatNumber(seasonPackedMb, 2)} MB`);
  const gridMb = (await measureGrid(handle, days)) / 1e6;
  const recentRowsMb = ((asRows / reports) * perDay * DAYS_AS_ROWS) / 1e6;
  // The rest: the machine's row, its state, programs, a day's commands and events; well under 1 MB.
  const otherMb = 1;
  printFigure('reports still rows', `${formatNumber(recentRowsMb, 2)} MB (${DAYS_AS_ROWS} days)`);
  printTargeted('season total', seasonPackedMb + recentRowsMb + gridMb + otherMb, 'MB', { atMost: GOAL_SEASON_MB }, 1);
  printFigure('the same, nothing packed', `${formatNumber(seasonRowsMb + gridMb + otherMb, 0)} MB`);
}

runBenchmark('bench:storage', 20 * 60_000, async () => {
  const days = Array.from({ length: options.days }, (_, index) =>
    simulateDay({ start: FIRST_DAY + index * 86_400_000, seed: index + 1 }),
  );
  printTitle('Storage of a machine’s reports, rows and packed', {
    days: `${options.days} simulated days of a 420 m pivot, moving ~60 % of each, extrapolated to ${options.seasonDays}`,
    target: `≤ ${TARGET_BYTES_PER_PACKED_REPORT} bytes a packed report on disk, indexes included`,
  });

  const pglite = new PGlite();
  const embedded = await openPglite(pglite);
  try {
    await measure('PGlite (embedded)', embedded, days);
  } finally {
    await embedded.close();
  }

  const serverUrl = options.database ?? DEFAULT_POSTGRES;
  const name = `bench_storage_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const postgres = await openPostgres(url.toString(), () => undefined);
  try {
    await measure('PostgreSQL', postgres, days);
  } finally {
    await postgres.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  printNote(
    'The season total: the packed season, the rows of the days not packed yet, the water grid, and 1 MB for the rest.',
  );
  printNote(
    'Sizes are pg_total_relation_size: heap, TOAST and indexes, in 8 KB pages; a day partition goes whole once its day is packed.',
  );
});
