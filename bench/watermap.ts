/**
 * The watermap of one machine over a season: a 180-day season of 5-second telemetry stored in
 * bulk, counted once into the water grid, then GET /api/sprinkler/{id}/watermap/ over the whole
 * season through the listening API, as a signed-in user. Target: p95 < 50 ms.
 */
import { randomBytes } from 'node:crypto';
import { grantAccess } from '@pivot/server/src/modules/access/access.repository';
import { insertSprinkler } from '@pivot/server/src/modules/sprinklers/sprinklers.repository';
import { waterCells } from '@pivot/server/src/modules/watermap/watermap.table';
import { count, eq, sql } from 'drizzle-orm';
import { startBenchServer } from './support/bench-server';
import { insertTelemetryColumns } from './support/bulk-insert';
import { readOptions } from './support/cli';
import { formatNumber, printFigure, printNote, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { seasonTelemetry } from './support/season-telemetry';
import { summarise, timeSequentially, timed } from './support/stats';
import { getBody } from './support/http';

const TARGET_P95_MS = 50;
const REPORT_INTERVAL_MS = 5000;
const DAY_MS = 86_400_000;
/** The season starts on 1 April, at local midnight in Poland (UTC+2 then), the server's default time zone. */
const FIRST_DAY = Date.UTC(2025, 3, 1);
const SEASON_START = FIRST_DAY - 2 * 3_600_000;
const INSERT_CHUNK = 50_000;
/** The first requests warm the JIT and the database's caches; they are not counted. */
const WARM_UP_REQUESTS = 5;
const MACHINE = { armLength: 400, flow: 90, topSpeed: 3 };
const CENTRE = { lat: '52.250000', lng: '17.150000' };

/** The season's day (0 = the first) as the API takes it, dd.mm.yyyy. */
function dottedDay(day: number): string {
  const [year, month, date] = new Date(FIRST_DAY + day * DAY_MS).toISOString().slice(0, 10).split('-');
  return `${date}.${month}.${year}`;
}

/**
 * The target's season is 180 days (3.1 M reports), but inserting and accounting it takes about
 * five minutes on this machine; 90 days fit the benchmark's three minutes. `--days 180` runs it all.
 */
const FULL_SEASON_DAYS = 180;
const options = readOptions({ days: 90, requests: 200 });

runBenchmark('watermap', (60 + 3 * options.days) * 1000, async () => {
  const reports = Math.round((options.days * DAY_MS) / REPORT_INTERVAL_MS);
  const server = await startBenchServer(options);
  try {
    const { app } = server;
    const { db } = app.database;
    // The periodic accounting would count the season while it is being inserted; it runs once, timed, below.
    await app.waterAccounting.stop();
    printTitle('Watermap of one machine over a season', {
      broker: server.setting.broker,
      database: server.setting.database,
      season: `${options.days} days of reports every 5 s: ${formatNumber(reports)} reports, arm ${MACHINE.armLength} m`,
    });

    const user = await server.createUser();
    const sprinkler = await insertSprinkler(db, {
      internalId: `BENCH-SEASON-${randomBytes(3).toString('hex')}`,
      name: 'Season',
      ...CENTRE,
      armLength: MACHINE.armLength,
    });
    await grantAccess(db, sprinkler.id, user.id);

    let watering = 0;
    const insertMs = await timed(async () => {
      const chunks = seasonTelemetry({
        machine: MACHINE,
        start: SEASON_START,
        count: reports,
        intervalMs: REPORT_INTERVAL_MS,
        chunkSize: INSERT_CHUNK,
        seed: 7,
      });
      for (const chunk of chunks) {
        watering += chunk.flow.filter((flow) => flow > 0).length;
        await insertTelemetryColumns(db, sprinkler.internalId, chunk);
      }
    });
    printFigure(
      'generated and inserted',
      `${formatNumber(insertMs / 1000, 1)} s (${formatNumber((reports / insertMs) * 1000)} reports/s)`,
    );
    printFigure('watering', `${formatNumber((watering / reports) * 100)} % of the reports`);

    const seasonEnd = SEASON_START + reports * REPORT_INTERVAL_MS;
    const accountingMs = await timed(() => app.waterAccounting.runOnce(new Date(seasonEnd)));
    const [grid] = await db
      .select({ rows: count() })
      .from(waterCells)
      .where(eq(waterCells.machineId, sprinkler.internalId));
    printFigure(
      'water accounting of the season',
      `${formatNumber(accountingMs / 1000, 1)} s (${formatNumber((reports / accountingMs) * 1000)} reports/s)`,
    );
    printFigure('grid rows (cell × month)', formatNumber(grid!.rows));
    // A server that has run a season has statistics on the grid (autovacuum analyses it as it
    // grows); a table filled a minute ago has none, and the planner then sorts the rows on disk.
    await db.execute(sql`analyze ${waterCells}`);

    const session = await server.signIn(user.email);
    const query = new URLSearchParams({ start: dottedDay(0), stop: dottedDay(options.days - 1) });
    const path = `/api/sprinkler/${sprinkler.id}/watermap/?${query}`;
    let cells = 0;
    const request = async () => {
      const body = await getBody(server.baseUrl, path, session.access);
      cells = (JSON.parse(body) as { data: unknown[] }).data.length;
    };
    await timeSequentially(WARM_UP_REQUESTS, request);
    const latency = summarise(await timeSequentially(options.requests, request));
    printFigure('answer', `${formatNumber(cells)} cells, ${query.get('start')} to ${query.get('stop')}`);
    printFigure(
      'latency p50 / max',
      `${formatNumber(latency.p50, 1)} ms / ${formatNumber(latency.max, 1)} ms (${latency.count} requests, one at a time)`,
    );
    printTargeted('latency p95', latency.p95, 'ms', { below: TARGET_P95_MS }, 1);
    if (options.days < FULL_SEASON_DAYS) {
      const perReportMs = (insertMs + accountingMs) / reports;
      const fullSeasonMinutes = (perReportMs * FULL_SEASON_DAYS * DAY_MS) / REPORT_INTERVAL_MS / 60_000;
      printNote(
        `A ${options.days}-day season, not the target's ${FULL_SEASON_DAYS} days: storing and accounting those would take about ${formatNumber(fullSeasonMinutes)} min at these rates (run with --days ${FULL_SEASON_DAYS}).`,
      );
    }
  } finally {
    await server.close();
  }
});
