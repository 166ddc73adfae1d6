/**
 * GET /api/sprinkler/{id}/ for a signed-in farmer, in requests/s, next to GET /api/health
 * (one trivial query) in the same run: both under the same load from autocannon in a process
 * of its own. The machine is set up as in real use: a simulated machine with its field, a
 * program, three users, a weather station with a week of readings and three soil probes.
 * Target: the detail at least 40 % of the health rate.
 *
 * At a dealer's scale (issue 38): `--fleet` more machines at rest stored straight in the
 * database, and `--admin 1` asks as an administrator, who sees every machine; the latency's p95
 * is then the figure (target < 500 ms).
 */
import { SprinklerDetailSchema, type WeatherMessage } from '@pivot/contracts';
import { insertWeatherReadings } from '@pivot/server/src/modules/weather/weather.repository';
import type { StationSite } from '@pivot/simulator';
import type { BenchServer } from './support/bench-server';
import { insertRestingMachines } from './support/bulk-insert';
import { readOptions } from './support/cli';
import { withSimulatedMachine } from './support/machine-setup';
import { seededRandom } from './support/random';
import { formatNumber, printTitle } from './support/report';
import { WARM_UP_SECONDS, printShareOfHealth } from './support/share-of-health';
import { runBenchmark } from './support/run';
import { waitUntil } from './support/stats';

const TARGET_SHARE_PERCENT = 40;
const WEEK_MS = 7 * 86_400_000;
const READING_EVERY_MS = 10 * 60_000;

const options = readOptions({ seconds: 10, connections: 10, fleet: 0, admin: 0 }, ['fleet', 'admin']);

/**
 * A week of readings every 10 minutes, so that the detail sums real rainfall and ETP: a
 * summer week with warm days, cool nights and now and then a shower.
 */
async function storeWeekOfWeather(server: BenchServer, station: StationSite): Promise<void> {
  const random = seededRandom(3);
  const now = Date.now();
  const readings: WeatherMessage[] = [];
  for (let ts = now - WEEK_MS; ts < now - READING_EVERY_MS; ts += READING_EVERY_MS) {
    const hour = new Date(ts).getUTCHours() + 2;
    const daylight = Math.max(0, Math.sin((Math.PI * (hour - 5)) / 15));
    const reading: WeatherMessage = {
      v: 1,
      ts,
      lat: station.lat,
      lng: station.lng,
      temperature: Math.round((14 + 10 * daylight + random.between(-1, 1)) * 10) / 10,
      humidity: Math.round(90 - 40 * daylight),
      rain: random.next() < 0.04 ? Math.round(random.between(0.2, 3) * 10) / 10 : 0,
      wind: Math.round(random.between(1, 5) * 10) / 10,
      solarRadiation: Math.round(850 * daylight),
    };
    readings.push(reading);
  }
  await insertWeatherReadings(
    server.app.database.db,
    { stationId: station.id, machineId: station.machineId },
    readings,
  );
}

runBenchmark('sprinkler-detail', 170_000, () =>
  withSimulatedMachine(options, 3, async ({ server, machine, users }) => {
    await storeWeekOfWeather(server, machine.station);
    if (options.fleet > 0) await insertRestingMachines(server.app.database.db, options.fleet);
    const reader = options.admin ? await server.signInAdmin() : await server.signIn(users[0]!.email);
    const detailPath = `/api/sprinkler/${machine.sprinklerId}/`;
    // Ready once the machine, its station and its probes have all reported.
    let detailBytes = 0;
    await waitUntil(
      async () => {
        const response = await reader.call('GET', detailPath);
        const detail = SprinklerDetailSchema.parse(response.body);
        detailBytes = JSON.stringify(detail).length;
        return detail.status !== null && detail.weather_stations.length === 1 && detail.humidity_sensors.length === 3;
      },
      'the machine, its weather station and soil probes to report',
      15_000,
      200,
    );
    printTitle('Machine detail: GET /api/sprinkler/{id}/ next to GET /api/health', {
      broker: server.setting.broker,
      database: server.setting.database,
      load: `autocannon, ${options.connections} connections, ${options.seconds} s each after ${WARM_UP_SECONDS} s of warm-up`,
      detail: `${formatNumber(detailBytes)} bytes: field, program, 3 users, a station with a week of readings, 3 probes`,
      fleet: `${formatNumber(options.fleet)} more machines at rest in the database; asked by ${options.admin ? 'an administrator' : 'a farmer granted the machine'}`,
    });

    await printShareOfHealth(
      server,
      {
        label: 'GET /api/sprinkler/{id}/',
        path: detailPath,
        authorization: `Bearer ${reader.access}`,
        shareLabel: 'detail / health',
      },
      { connections: options.connections, seconds: options.seconds, targetPercent: TARGET_SHARE_PERCENT },
    );
  }),
);
