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
import { packDay } from '@pivot/server/src/modules/telemetry-packing/packed-day';
import { insertPackedDay } from '@pivot/server/src/modules/telemetry-packing/telemetry-packing.repository';
import { TelemetryPartitions } from '@pivot/server/src/modules/telemetry-packing/telemetry-partitions';
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
const options = readOptions({ days: 10, seasonDays: 180, armLength: 400 });
/** The water grid's cell (WATER_GRID_STEP_M), and a pass every 4 days of the season, watered cells only then. */
const GRID_STEP_M = 10;
const PASS_EVERY_DAYS = 4;
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

/**
 * The water grid of one machine's year (water_cell_years: a cell's 366 days as doubles), every
 * 10 m cell of the circle, water on every PASS_EVERY_DAYS-th day of the season (depths as the
 * accounting computes them: arbitrary doubles), nothing on the other days. Its bytes on disk.
 */
async function gridBytes(handle: DatabaseHandle): Promise<{ bytes: number; cells: number }> {
  const cellsAcross = Math.ceil(options.armLength / GRID_STEP_M);
  await handle.db.execute(sql`
    insert into water_cell_years (machine_id, year, x, y, days)
    select ${MACHINE_ID}, 2026, x, y, array(
      select case when day % ${PASS_EVERY_DAYS} = 0 and day between 91 and ${90 + options.seasonDays}
        then random() * 20 else 0 end
      from generate_series(1, 366) day order by day)
    from generate_series(${-cellsAcross}::int, ${cellsAcross - 1}::int) x,
         generate_series(${-cellsAcross}::int, ${cellsAcross - 1}::int) y
    where sqrt(power((x + 0.5) * ${GRID_STEP_M}, 2) + power((y + 0.5) * ${GRID_STEP_M}, 2)) <= ${options.armLength}`);
  await handle.db.execute(sql`analyze water_cell_years`);
  return {
    bytes: await number(handle, sql`select pg_total_relation_size('water_cell_years') as value`),
    cells: await number(handle, sql`select count(*) as value from water_cell_years`),
  };
}

async function measure(kind: string, handle: DatabaseHandle, days: Report[][]): Promise<void> {
  const silent = { info: () => undefined, warn: () => undefined };
  const partitions = new TelemetryPartitions({
    db: handle.db,
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
  const grid = await gridBytes(handle);
  const recentRowsMb = ((asRows / reports) * perDay * DAYS_AS_ROWS) / 1e6;
  // The rest: the machine's row, its state, programs, a day's commands and events; well under 1 MB.
  const otherMb = 1;
  const gridMb = grid.bytes / 1e6;
  printFigure(
    `water grid, ${options.armLength} m`,
    `${formatNumber(gridMb, 2)} MB (${formatNumber(grid.cells)} cells, ${formatNumber(grid.bytes / grid.cells)} B each)`,
  );
  printFigure('reports still rows', `${formatNumber(recentRowsMb, 2)} MB (${DAYS_AS_ROWS} days)`);
  printTargeted(
    `season total, ${options.armLength} m`,
    seasonPackedMb + recentRowsMb + gridMb + otherMb,
    'MB',
    { atMost: GOAL_SEASON_MB },
    1,
  );
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
