/**
 * Telemetry ingestion through a real broker into the database: a fleet of simulated machines
 * reporting every 5 s, then flooding reports as fast as the broker takes them. Prints what the
 * steady fleet costs the server's process in CPU time, the rate at which the server stored the
 * flood, next to the rate at which a plain subscriber that stores nothing received it from the
 * same broker, and checks that no report was lost.
 * Targets: the steady fleet at most 10 % of one core; at least 5,000 reports/s stored, at least
 * 95 % of the broker's raw rate on the embedded broker (90 % on a broker of its own, which the
 * server reaches over TCP), none lost.
 */
import { randomBytes } from 'node:crypto';
import { telemetry } from '@pivot/server/src/modules/telemetry/telemetry.table';
import { count, like } from 'drizzle-orm';
import { siteId } from '@pivot/simulator';
import { startBenchServer } from './support/bench-server';
import { ChildScript } from './support/child-script';
import { readOptions } from './support/cli';
import type { FleetEvent, FleetRequest } from './support/fleet-process';
import type { CounterEvent, CounterRequest } from './support/raw-counter-process';
import { formatNumber, printFigure, printNote, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { sleep, timed } from './support/stats';

const TARGET_PER_SECOND = 5000;
/** Of the broker's raw rate: the embedded broker shares the server's process, an external one does not. */
const TARGET_SHARE_EMBEDDED = 95;
const TARGET_SHARE_EXTERNAL = 90;
/** Of one core, for the steady fleet. */
const TARGET_STEADY_CPU = 10;
const TELEMETRY_MS = 5000;
/** With no new report for this long after the fleet has sent everything, the rest is not coming. */
const QUIET_MS = 3000;
/**
 * How often the counts are read. Reading the server's adds up a count per machine in the server's
 * own process: every 5 ms it took 4 % of the server's core during the flood.
 */
const POLL_MS = 20;

/** `--rate N` paces the flood at N reports/s in all; without it the machines publish as fast as they can. */
const options = readOptions({ machines: 1000, steadySeconds: 15, floodPerMachine: 200, maxInFlight: 10, rate: 0 });

/** A count that grows as reports arrive, and when it last grew. */
type Progress = { count: number; at: number };

/**
 * Waits until the count reaches the goal, or stops growing for QUIET_MS once `allSent` says
 * everything was published (reports lost on the way never arrive). Returns the last progress.
 */
async function waitForCount(read: () => Promise<Progress>, goal: number, allSent: () => boolean): Promise<Progress> {
  let last = await read();
  for (;;) {
    if (last.count >= goal) return last;
    await sleep(POLL_MS);
    const now = await read();
    if (now.count !== last.count) last = now;
    else if (allSent() && Date.now() - now.at > QUIET_MS) return last;
  }
}

function perSecond(reports: number, fromMs: number, toMs: number): number {
  return (reports / Math.max(1, toMs - fromMs)) * 1000;
}

runBenchmark('telemetry-ingest', 280_000, async () => {
  const server = await startBenchServer(options);
  const fleet = ChildScript.start<FleetRequest, FleetEvent>(new URL('support/fleet-process.ts', import.meta.url));
  const counter = ChildScript.start<CounterRequest, CounterEvent>(
    new URL('support/raw-counter-process.ts', import.meta.url),
  );
  try {
    const { app } = server;
    // Flood reports are a millisecond apart and would have the accounting spread water for
    // each pair on the server's core, which is not ingestion; bench:watermap measures it.
    await app.waterAccounting.stop();
    const idPrefix = `BENCH${randomBytes(3).toString('hex')}-`;
    const floodTotal = options.machines * options.floodPerMachine;
    printTitle(`Telemetry ingestion: ${formatNumber(options.machines)} simulated machines`, {
      broker: server.setting.broker,
      database: server.setting.database,
      steady: `every machine reports every ${TELEMETRY_MS / 1000} s, for ${options.steadySeconds} s`,
      flood: `${formatNumber(options.floodPerMachine)} reports per machine, ${formatNumber(floodTotal)} in all, ${
        options.rate > 0
          ? `paced at ${formatNumber(options.rate)} reports/s`
          : `as fast as they can, at most ${options.maxInFlight} unacknowledged per machine`
      }`,
    });

    await counter.ask({ type: 'start', brokerUrl: app.mqttUrl, idPrefix, server: app.brokerPolicy.server }, 'started');
    // The fleet's machine IDs, as the simulator numbers them, registered before they connect.
    const expectedIds = Array.from({ length: options.machines }, (_, index) => siteId(idPrefix, 'SIM', index + 1));
    const credentials = await server.registerControllers(expectedIds);
    const { machineIds } = await fleet.ask(
      {
        type: 'start',
        brokerUrl: app.mqttUrl,
        count: options.machines,
        idPrefix,
        telemetryMs: TELEMETRY_MS,
        credentials,
      },
      'started',
    );
    let serverProgress: Progress = { count: 0, at: Date.now() };
    const readServer = async (): Promise<Progress> => {
      const received = machineIds.reduce((sum, id) => sum + app.telemetry.received(id), 0);
      if (received !== serverProgress.count) serverProgress = { count: received, at: Date.now() };
      return serverProgress;
    };
    const readRaw = () => counter.ask({ type: 'count' }, 'count');

    // The server runs in this process: its CPU time over the steady phase is the fleet's cost.
    const steadyStart = { server: await readServer(), raw: await readRaw(), at: Date.now(), cpu: process.cpuUsage() };
    await sleep(options.steadySeconds * 1000);
    const steadyCpu = process.cpuUsage(steadyStart.cpu);
    const steadyEnd = { server: await readServer(), raw: await readRaw(), at: Date.now() };
    const steadyRate = (side: 'server' | 'raw') =>
      formatNumber(perSecond(steadyEnd[side].count - steadyStart[side].count, steadyStart.at, steadyEnd.at));
    printFigure(
      'steady: received by the server',
      `${steadyRate('server')} reports/s (plain subscriber: ${steadyRate('raw')})`,
    );
    const steadyCpuMs = (steadyCpu.user + steadyCpu.system) / 1000;
    printTargeted(
      'steady: server CPU time',
      (steadyCpuMs / (steadyEnd.at - steadyStart.at)) * 100,
      '% of a core',
      { atMost: TARGET_STEADY_CPU },
      1,
    );

    const rawBase = (await readRaw()).count;
    const serverBase = (await readServer()).count;
    let allSent = false;
    const rawReached = counter.ask({ type: 'notify', total: rawBase + floodTotal }, 'reached');
    const floodStart = Date.now();
    fleet.send({
      type: 'flood',
      perMachine: options.floodPerMachine,
      maxInFlight: options.maxInFlight,
      perSecond: options.rate > 0 ? options.rate : undefined,
    });
    const flooded = fleet.next('flooded').then((event) => {
      allSent = true;
      return event;
    });
    const received = await waitForCount(readServer, serverBase + floodTotal, () => allSent);
    // Reports are stored in batches as they arrive; the last batch is stored by this flush. (When
    // reports were lost, the wait ended QUIET_MS after the last arrival: that idle time is not counted.)
    const storedAt = received.at + (await timed(() => app.telemetry.flush()));
    const { at: floodSentAt } = await flooded;
    const raw = await Promise.race([rawReached, waitForCount(readRaw, rawBase + floodTotal, () => true)]);

    await fleet.ask({ type: 'stop', forget: options.broker !== undefined }, 'stopped');
    // Reports still on their way when the fleet stopped: wait until both counts settle.
    const rawTotal = await waitForCount(readRaw, Infinity, () => true);
    await waitForCount(readServer, rawTotal.count, () => true);
    await app.telemetry.flush();
    const [stored] = await app.database.db
      .select({ rows: count() })
      .from(telemetry)
      .where(like(telemetry.machineId, `${idPrefix}%`));
    // Published were at least: what either subscriber received, and the flood on top of what
    // came before it (the broker may drop reports to a subscriber that falls behind, even the plain one).
    const published = Math.max(rawTotal.count, (await readServer()).count, rawBase + floodTotal);
    const lost = published - stored!.rows;

    const rawRate = perSecond(raw.count - rawBase, floodStart, raw.at);
    const storedRate = perSecond(received.count - serverBase, floodStart, storedAt);
    printFigure(
      'flood: published by the fleet',
      `${formatNumber(perSecond(floodTotal, floodStart, floodSentAt))} reports/s`,
    );
    printFigure('flood: broker raw rate', `${formatNumber(rawRate)} reports/s (plain subscriber, nothing stored)`);
    printFigure(
      'flood: received by the server',
      `${formatNumber(perSecond(received.count - serverBase, floodStart, received.at))} reports/s`,
    );
    printTargeted('flood: stored by the server', storedRate, 'reports/s', { atLeast: TARGET_PER_SECOND });
    printTargeted('stored / raw rate', (storedRate / rawRate) * 100, '%', {
      atLeast: options.broker === undefined ? TARGET_SHARE_EMBEDDED : TARGET_SHARE_EXTERNAL,
    });
    printTargeted(`lost of ${formatNumber(published)}+ published`, lost, 'reports', { atMost: 0 });
    if (lost > 0) printNote('Reports were lost: the stored rate is not one sustained with none lost.');
    if (raw.count - rawBase < floodTotal) {
      printNote(
        `The plain subscriber got ${formatNumber(raw.count - rawBase)} of the flood: the broker dropped reports.`,
      );
    }
  } finally {
    await Promise.all([fleet.end(), counter.end()]);
    await server.close();
  }
});
