/**
 * A command's round trip: POST /api/sprinkler/{id}/motion from a signed-in farmer, through the
 * broker to a simulated machine and its confirmation back to the API's answer. A few hundred
 * commands one after another, cycling front, back and stop. Target: p95 < 50 ms on loopback.
 */
import type { Motion } from '@pivot/contracts';
import { readOptions } from './support/cli';
import { expectStatus, withSimulatedMachine } from './support/machine-setup';
import { formatNumber, printFigure, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { summarise, timeSequentially } from './support/stats';

const TARGET_P95_MS = 50;
/** The first commands warm the JIT, the connections and the database's caches; they are not counted. */
const WARM_UP_COMMANDS = 10;
const MOTIONS: readonly Motion[] = ['front', 'back', 'stop'];

const options = readOptions({ commands: 300 });

runBenchmark('command-round-trip', 170_000, () =>
  withSimulatedMachine(options, 1, async ({ server, machine, users }) => {
    const farmer = await server.signIn(users[0]!.email);
    printTitle('Command round trip: POST /api/sprinkler/{id}/motion to a simulated machine', {
      broker: server.setting.broker,
      database: server.setting.database,
      commands: `${options.commands} one after another, front, back and stop in turn, after ${WARM_UP_COMMANDS} not counted`,
    });
    const path = `/api/sprinkler/${machine.sprinklerId}/motion`;
    const send = async (index: number) => {
      const motion = MOTIONS[index % MOTIONS.length]!;
      expectStatus(await farmer.call('POST', path, { motion }), 200, `motion ${motion}`);
    };
    await timeSequentially(WARM_UP_COMMANDS, send);
    const latency = summarise(await timeSequentially(options.commands, send));
    printFigure(
      'round trip p50 / max',
      `${formatNumber(latency.p50, 1)} ms / ${formatNumber(latency.max, 1)} ms (${latency.count} commands)`,
    );
    printTargeted('round trip p95', latency.p95, 'ms', { below: TARGET_P95_MS }, 1);
  }),
);
