/**
 * GET /api/sprinkler/ for a farmer granted 50 machines, in requests/s, next to GET /api/health
 * (one trivial query) in the same run: both under the same load from autocannon in a process
 * of its own. The machines are set up as in real use: simulated machines (the demo machines in
 * turn) reporting live, each with its field, a program, three users, a weather station and
 * three soil probes. Target: the list at least 40 % of the health rate.
 *
 * At a dealer's scale (issue 38): `--fleet` more machines at rest stored straight in the
 * database, and `--admin 1` asks as an administrator, who sees every machine; the latency's p95
 * is then the figure (target < 500 ms). `--page 1` asks for the machines table's first page
 * instead (`GET /api/sprinkler/page/`, 25 machines by name, with the count of all), as the table
 * does since the list is paged.
 */
import { SprinklerListResponseSchema, SprinklerPageSchema, sprinklersEndpoints } from '@pivot/contracts';
import { insertRestingMachines } from './support/bulk-insert';
import { readOptions } from './support/cli';
import { withSimulatedMachines } from './support/machine-setup';
import { formatNumber, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { WARM_UP_SECONDS, printShareOfHealth } from './support/share-of-health';
import { waitUntil } from './support/stats';

const TARGET_SHARE_PERCENT = 40;

const options = readOptions({ seconds: 10, connections: 10, machines: 50, fleet: 0, admin: 0, page: 0 }, [
  'fleet',
  'admin',
  'page',
]);

/** What is measured: the whole list, or the table's first page. */
const measured = options.page
  ? { label: 'GET /api/sprinkler/page/ (first page)', path: `/api${sprinklersEndpoints.page.path}?pageSize=25` }
  : { label: 'GET /api/sprinkler/', path: '/api/sprinkler/' };

runBenchmark('sprinkler-list', 400_000, () =>
  withSimulatedMachines(options, 3, options.machines, async ({ server, users }) => {
    if (options.fleet > 0) await insertRestingMachines(server.app.database.db, options.fleet);
    const reader = options.admin ? await server.signInAdmin() : await server.signIn(users[0]!.email);
    const expected = options.machines + (options.admin ? options.fleet : 0);
    // Ready once every machine has reported.
    let listBytes = 0;
    await waitUntil(
      async () => {
        const list = SprinklerListResponseSchema.parse((await reader.call('GET', '/api/sprinkler/')).body);
        listBytes = JSON.stringify(list).length;
        return list.length === expected && list.every((machine) => machine.status !== null);
      },
      'every machine to report',
      30_000,
      200,
    );
    if (options.page) {
      const page = SprinklerPageSchema.parse((await reader.call('GET', measured.path)).body);
      if (page.count !== expected) throw new Error(`the page counts ${page.count} machines, not ${expected}`);
      listBytes = JSON.stringify(page).length;
    }
    printTitle(`Machine list: ${measured.label} next to GET /api/health`, {
      broker: server.setting.broker,
      database: server.setting.database,
      load: `autocannon, ${options.connections} connections, ${options.seconds} s each after ${WARM_UP_SECONDS} s of warm-up`,
      list: `${formatNumber(listBytes)} bytes: ${options.machines} machines granted to the farmer, each with its field, a program, 3 users, a station and 3 probes`,
      fleet: `${formatNumber(options.fleet)} more machines at rest in the database; asked by ${options.admin ? 'an administrator (every machine)' : 'the farmer'}`,
    });
    await printShareOfHealth(
      server,
      {
        ...measured,
        authorization: `Bearer ${reader.access}`,
        shareLabel: 'list / health',
      },
      { connections: options.connections, seconds: options.seconds, targetPercent: TARGET_SHARE_PERCENT },
    );
  }),
);
