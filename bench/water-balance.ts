/**
 * The water balance of a 520 m machine's season: GET /api/sprinkler/{id}/water-balance/ on the
 * last day of a 170-day maize season (every 10 m cell of the circle, about 8,500, run day by day
 * from emergence), through the listening API as a signed-in user, with a season of hourly station
 * readings and the watermap's water of a 20 mm pass every 4 days stored beforehand. Target: p95
 * < 50 ms on the embedded defaults. Then the season series, GET …/water-balance/season/, of a like
 * machine's 180-day season (every day of it, and the coming days), every day corrected by the
 * hourly readings of two soil probes in the circle: target p95 < 100 ms.
 */
import { randomBytes } from 'node:crypto';
import type { CustomCrop } from '@pivot/contracts';
import type { Database } from '@pivot/server/src/db/client';
import { grantAccess } from '@pivot/server/src/modules/access/access.repository';
import { insertCropSeasons } from '@pivot/server/src/modules/crop-seasons/crop-seasons.repository';
import { insertSprinkler } from '@pivot/server/src/modules/sprinklers/sprinklers.repository';
import { soilReadings, weatherReadings } from '@pivot/server/src/modules/weather/weather.table';
import { startBenchServer } from './support/bench-server';
import { readOptions } from './support/cli';
import { getBody } from './support/http';
import { formatNumber, printFigure, printSection, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { passesEvery, storePasses, summerDayWeather } from './support/season-inputs';
import { summarise, timeSequentially } from './support/stats';

const TARGET_P95_MS = 50;
const SERIES_TARGET_P95_MS = 100;
/** A maize-like custom crop of 180 days (FAO-56 Table 11's lengths stretched by the mid-season). */
const SERIES_SEASON_DAYS = 180;
const SERIES_CROP: CustomCrop = { kc: [0.3, 1.2, 0.6], stages: [30, 40, 60, 50], rootDepth: [0.15, 1.0], p: 0.55 };
const WARM_UP_REQUESTS = 5;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const ARM_M = 520;
const CENTRE = { lat: '52.250000', lng: '17.150000' };
/** Maize (grain) emerging on 1 April 2025; Table 11's season is 170 days. */
const EMERGENCE = Date.UTC(2025, 3, 1);
const SEASON_DAYS = 170;
const PASS_EVERY_DAYS = 4;
const PASS_MM = 20;
const INSERT_CHUNK = 1000;
/** The season machine's soil probes, metres east and north of its centre, each reading hourly all season. */
const SERIES_PROBES = [
  { sensorId: 'BENCH-PROBE-1', east: 150, north: 40 },
  { sensorId: 'BENCH-PROBE-2', east: 300, north: -120 },
];
const METRES_PER_DEGREE_LAT = 111_320;

/** `--probes 0` runs the season machine without them, as the bench did before 29 November. */
const options = readOptions({ requests: 100, probes: SERIES_PROBES.length }, ['probes']);
const seriesProbes = SERIES_PROBES.slice(0, options.probes);

/** dd.mm.yyyy of a UTC midnight. */
function dotted(ms: number): string {
  const [year, month, day] = new Date(ms).toISOString().slice(0, 10).split('-');
  return `${day}.${month}.${year}`;
}

/** The first machine's station's readings of a day of the season. */
function readingsOf(dayIndex: number) {
  return summerDayWeather(EMERGENCE, dayIndex, SEASON_DAYS).map(({ ts, ...weather }) => ({
    stationId: 'BENCH-WS',
    machineId: null,
    ts: new Date(ts),
    lat: 52.251,
    lng: 17.15,
    ...weather,
  }));
}

/** The watermap's water for every cell a machine's arm reaches: a pass every few days of the season. */
function storeWater(db: Database, machineId: string, seasonDays: number): Promise<number> {
  return storePasses(db, machineId, ARM_M, passesEvery(EMERGENCE, seasonDays, PASS_EVERY_DAYS, PASS_MM));
}

/**
 * Hourly readings of the season machine's probes over its season, moisture (volumetric %) about a
 * loam's field capacity, drying and wetting over a few days: every past day is corrected by them
 * (docs/advice.md, "Probes"). Its centre is 680 m east of the first machine, beyond that one's
 * sensor area (its arm plus 100 m), which they do not reach.
 */
async function storeProbeReadings(db: Database, centre: { lat: number; lng: number }, days: number): Promise<number> {
  const metresPerDegreeLng = METRES_PER_DEGREE_LAT * Math.cos((centre.lat * Math.PI) / 180);
  let rows: (typeof soilReadings.$inferInsert)[] = [];
  let stored = 0;
  for (const probe of seriesProbes) {
    for (let hour = 0; hour < days * 24; hour += 1) {
      rows.push({
        sensorId: probe.sensorId,
        machineId: null,
        ts: new Date(EMERGENCE - 2 * HOUR_MS + hour * HOUR_MS),
        lat: centre.lat + probe.north / METRES_PER_DEGREE_LAT,
        lng: centre.lng + probe.east / metresPerDegreeLng,
        moisture: 21 + 3 * Math.sin((hour / 24 / 5) * Math.PI) + (probe.east > 200 ? 1 : 0),
        depth: 30,
      });
      if (rows.length === INSERT_CHUNK) {
        await db.insert(soilReadings).values(rows);
        stored += rows.length;
        rows = [];
      }
    }
  }
  if (rows.length > 0) await db.insert(soilReadings).values(rows);
  return stored + rows.length;
}

runBenchmark('water-balance', 180_000, async () => {
  const server = await startBenchServer(options);
  try {
    const { app } = server;
    const { db } = app.database;
    await app.waterAccounting.stop();
    printTitle('Water balance of a 520 m machine over a season', {
      broker: server.setting.broker,
      database: server.setting.database,
      season: `maize from ${dotted(EMERGENCE)}, ${SEASON_DAYS} days, a ${PASS_MM} mm pass every ${PASS_EVERY_DAYS} days`,
    });
    const user = await server.createUser();
    const sprinkler = await insertSprinkler(db, {
      internalId: `BENCH-BALANCE-${randomBytes(3).toString('hex')}`,
      name: 'Balance',
      ...CENTRE,
      armLength: ARM_M,
    });
    await grantAccess(db, sprinkler.id, user.id, 'watch');
    await insertCropSeasons(db, sprinkler.id, [
      {
        name: 'Maize 2025',
        polygon: null,
        crop: 'maize-grain',
        emergence: '2025-04-01',
        year: 2025,
        soil: 'loam',
        depletionFraction: null,
        efficiency: null,
      },
    ]);
    for (let day = 0; day < SERIES_SEASON_DAYS; day += 10) {
      const rows = [];
      for (let dayIndex = day; dayIndex < Math.min(day + 10, SERIES_SEASON_DAYS); dayIndex += 1)
        rows.push(...readingsOf(dayIndex));
      await db.insert(weatherReadings).values(rows);
    }
    const cells = await storeWater(db, sprinkler.internalId, SEASON_DAYS);
    const session = await server.signIn(user.email);
    const date = dotted(EMERGENCE + (SEASON_DAYS - 1) * DAY_MS);
    const path = `/api/sprinkler/${sprinkler.id}/water-balance/?date=${date}`;
    let answered = 0;
    const request = async () => {
      const body = await getBody(server.baseUrl, path, session.access);
      answered = (JSON.parse(body) as { cells: unknown[] }).cells.length;
    };
    await timeSequentially(WARM_UP_REQUESTS, request);
    const latency = summarise(await timeSequentially(options.requests, request));
    printFigure('answer', `${formatNumber(answered)} cells of ${formatNumber(cells)} stored, on ${date}`);
    printFigure(
      'latency p50 / max',
      `${formatNumber(latency.p50, 1)} ms / ${formatNumber(latency.max, 1)} ms (${latency.count} requests, one at a time)`,
    );
    printTargeted('latency p95', latency.p95, 'ms', { below: TARGET_P95_MS }, 1);

    // The season series: a like machine beside it (the same station), its season 180 days long.
    const seriesMachine = await insertSprinkler(db, {
      internalId: `BENCH-SEASON-${randomBytes(3).toString('hex')}`,
      name: 'Season',
      lat: CENTRE.lat,
      lng: '17.160000',
      armLength: ARM_M,
    });
    await grantAccess(db, seriesMachine.id, user.id, 'watch');
    await insertCropSeasons(db, seriesMachine.id, [
      {
        name: 'Maize 180 days 2025',
        polygon: null,
        crop: SERIES_CROP,
        emergence: '2025-04-01',
        year: 2025,
        soil: 'loam',
        depletionFraction: null,
        efficiency: null,
      },
    ]);
    await storeWater(db, seriesMachine.internalId, SERIES_SEASON_DAYS);
    const probeReadings = await storeProbeReadings(
      db,
      { lat: Number(seriesMachine.lat), lng: Number(seriesMachine.lng) },
      SERIES_SEASON_DAYS,
    );
    const seriesDate = dotted(EMERGENCE + (SERIES_SEASON_DAYS - 1) * DAY_MS);
    const seriesPath = `/api/sprinkler/${seriesMachine.id}/water-balance/season/?date=${seriesDate}`;
    let days = 0;
    const seriesRequest = async () => {
      const body = await getBody(server.baseUrl, seriesPath, session.access);
      days = (JSON.parse(body) as { zones: { depletion: unknown[] }[] }).zones[0]!.depletion.length;
    };
    const [fromEmergence] = await timeSequentially(1, seriesRequest);
    await timeSequentially(WARM_UP_REQUESTS - 1, seriesRequest);
    const series = summarise(await timeSequentially(options.requests, seriesRequest));
    printSection('Season series');
    printFigure(
      'answer',
      `${formatNumber(days)} days of ${formatNumber(cells)} cells' zone, through ${seriesDate}, ` +
        `every day corrected by ${seriesProbes.length} probes (${formatNumber(probeReadings)} hourly readings)`,
    );
    printFigure('first answer (run from emergence)', `${formatNumber(fromEmergence!, 1)} ms`);
    printFigure(
      'series p50 / max',
      `${formatNumber(series.p50, 1)} ms / ${formatNumber(series.max, 1)} ms (${series.count} requests, one at a time)`,
    );
    printTargeted('series p95', series.p95, 'ms', { below: SERIES_TARGET_P95_MS }, 1);
  } finally {
    await server.close();
  }
});
