/**
 * Registering `--machines` controllers' accounts on Mosquitto 2's dynamic-security plugin, as the
 * server does (MosquittoDynamicSecurity.setDevice), without the API around it: what the broker
 * spends on it. The plugin writes its whole file after every change, so a change costs more the
 * more accounts there are. `--olderSetup 1` sets the broker up without the controllers' acl_file
 * (receiving allowed by default): each registration then makes a role of the machine's own too.
 * Prints the time and Mosquitto CPU of each tenth of the fleet, the whole, and the file's size.
 */
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { MosquittoDynamicSecurity } from '@pivot/server/src/gateway/mosquitto-dynamic-security';
import { startPrivateMosquitto } from '@pivot/server/test/support/private-mosquitto';
import pino from 'pino';
import { readOptions } from './support/cli';
import { cpuSeconds } from './support/proc';
import { formatNumber, printFigure, printSection, printTitle } from './support/report';
import { onAbort, runBenchmark } from './support/run';

const options = readOptions({ machines: 1000, atOnce: 8, olderSetup: 0 }, ['olderSetup']);

runBenchmark('broker-registration', 3 * 3600 * 1000, async () => {
  if (options.broker) throw new Error('--broker: the benchmark starts a Mosquitto of its own, with dynamic security');
  const machines = Math.round(options.machines);
  const olderSetup = options.olderSetup > 0;
  printTitle(`Registering ${formatNumber(machines)} controllers on Mosquitto dynamic security`, {
    broker: olderSetup
      ? 'Mosquitto 2 without the controllers’ acl_file: a role of its own for each controller'
      : 'Mosquitto 2 with the controllers’ acl_file (docs/operations.md): one account holding the shared role',
    calls: `${options.atOnce} at a time, through MosquittoDynamicSecurity.setDevice`,
  });
  const mosquitto = await startPrivateMosquitto([], { olderSetup });
  const forgetMosquitto = onAbort(mosquitto.stop);
  const accounts = await MosquittoDynamicSecurity.connect({
    url: mosquitto.url,
    ...mosquitto.admin,
    clientId: 'bench-accounts',
    logger: pino({ level: 'silent' }),
    timeoutMs: 120_000,
  });
  try {
    const prefix = `R${randomBytes(3).toString('hex').toUpperCase()}-`;
    const machineIds = Array.from({ length: machines }, (_, index) => `${prefix}${index + 1}`);
    const tenth = Math.max(1, Math.ceil(machines / 10));
    printSection('Each tenth of the fleet');
    const start = performance.now();
    const brokerStart = await cpuSeconds(mosquitto.pid());
    for (let from = 0; from < machines; from += tenth) {
      const batch = machineIds.slice(from, from + tenth);
      const batchStart = performance.now();
      const brokerBefore = await cpuSeconds(mosquitto.pid());
      let next = 0;
      const worker = async () => {
        while (next < batch.length)
          await accounts.setDevice(batch[next++]!, randomBytes(24).toString('base64url'), 'refuse');
      };
      await Promise.all(Array.from({ length: Math.min(options.atOnce, batch.length) }, worker));
      const brokerSeconds = (await cpuSeconds(mosquitto.pid())) - brokerBefore;
      printFigure(
        `controllers ${formatNumber(from + 1)}–${formatNumber(from + batch.length)}`,
        `${formatNumber((performance.now() - batchStart) / 1000, 1)} s, Mosquitto CPU ${formatNumber(brokerSeconds, 1)} s`,
      );
    }
    const seconds = (performance.now() - start) / 1000;
    const brokerSeconds = (await cpuSeconds(mosquitto.pid())) - brokerStart;
    const fileBytes = (await stat(mosquitto.dynsecFile)).size;
    printSection('The whole fleet');
    printFigure(`registering ${formatNumber(machines)} controllers`, `${formatNumber(seconds, 1)} s`);
    printFigure(
      'Mosquitto CPU',
      `${formatNumber(brokerSeconds, 1)} s (${formatNumber((brokerSeconds / machines) * 1000, 2)} ms a controller)`,
    );
    printFigure(
      'Mosquitto account file',
      `${formatNumber(fileBytes / 1e6, 2)} MB (${formatNumber(fileBytes / machines)} B a controller)`,
    );
  } finally {
    await accounts.close();
    forgetMosquitto();
    await mosquitto.stop();
  }
});
