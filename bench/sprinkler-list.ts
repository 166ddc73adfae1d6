/**
 * GET /api/sprinkler/ for a farmer granted 50 machines, in requests/s, next to GET /api/health
 * (one trivial query) in the same run: both under the same load from autocannon in a process
 * of its own. The machines are set up as in real use: simulated machines (the demo machines in
 * turn) reporting live, each with its field, a program, three users, a weather station and
 * three soil probes. Target: the list at least 40 % of the health rate.
 */
import { SprinklerListResponseSchema } from '@pivot/contracts';
import { readOptions } from './support/cli';
import { withSimulatedMachines } from './support/machine-setup';
import { formatNumber, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { WARM_UP_SECONDS, printShareOfHealth } from './support/share-of-health';
import { waitUntil } from './support/stats';

const TARGET_SHARE_PERCENT = 40;

const options = readOptions({ seconds: 10, connections: 10, machines: 50 });

runBenchmark('sprinkler-list', 400_000, () =>
  withSimulatedMachines(options, 3, options.machines, async ({ server, users }) => {
    const farmer = await server.signIn(users[0]!.email);
    // Ready once every machine has reported.
    let listBytes = 0;
    await waitUntil(
      async () => {
        const list = SprinklerListResponseSchema.parse((await farmer.call('GET', '/api/sprinkler/')).body);
        listBytes = JSON.stringify(list).length;
        return list.length === options.machines && list.every((machine) => machine.status !== null);
      },
      'every machine to report',
      30_000,
      200,
    );
    printTitle('Machine list: GET /api/sprinkler/ next to GET /api/health', {
      broker: server.setting.broker,
      database: server.setting.database,
      load: `autocannon, ${options.connections} connections, ${options.seconds} s each after ${WARM_UP_SECONDS} s of warm-up`,
      list: `${formatNumber(listBytes)} bytes: ${options.machines} machines granted to the farmer, each with its field, a program, 3 users, a station and 3 probes`,
    });
    await printShareOfHealth(
      server,
      {
        label: 'GET /api/sprinkler/',
        path: '/api/sprinkler/',
        authorization: `Bearer ${farmer.access}`,
        shareLabel: 'list / health',
      },
      { connections: options.connections, seconds: options.seconds, targetPercent: TARGET_SHARE_PERCENT },
    );
  }),
);
