/**
 * No request and no controller message blocks the event loop for more than 100 ms (issue 32): the
 * real server (embedded defaults, or the broker and database of the options) with one machine of
 * an 800 m arm, a user with control of it, a watcher, and its controller's own broker account.
 * An insider in a process of its own (support/hostile-client-process.ts) sends what costs the
 * most geometry: area maps and programs of combs (2,000 corners each, every edge overlapping
 * nearly every other along x), the programs a controller reports, as large as a message may be,
 * and then asks for the machine's water balance and the next irrigation; it asks /api/health
 * every 20 ms all along. Printed for each: the answer, how long it took, the event loop's longest
 * delay (measured in the server's process, which this is) and the longest health answer the
 * client saw, beside the goal; at the end, what /api/health itself reports of the last minute.
 */
import { randomBytes } from 'node:crypto';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { grantAccess } from '@pivot/server/src/modules/access/access.repository';
import { insertSprinkler } from '@pivot/server/src/modules/sprinklers/sprinklers.repository';
import { machineState } from '@pivot/server/src/modules/telemetry/telemetry.table';
import { weatherReadings } from '@pivot/server/src/modules/weather/weather.table';
import { addDays, localDate } from '@pivot/server/src/time/local-day';
import { eq } from 'drizzle-orm';
import { USER_PASSWORD, startBenchServer } from './support/bench-server';
import { ChildScript } from './support/child-script';
import { readOptions } from './support/cli';
import {
  CLOSED,
  type HostileEvent,
  type HostileRequest,
  type Outcome,
  type ShapeSpec,
} from './support/hostile-client-process';
import { formatNumber, printFigure, printNote, printSection, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';

const GOAL_MS = 100;
const TIME_ZONE = 'Europe/Warsaw';
const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM_M = 800;
const HOUR_MS = 3_600_000;
/** How long the insider keeps asking health after publishing a controller's message. */
const SETTLE_MS = 3000;

const options = readOptions({ calls: 2 });

const comb = (count: number): ShapeSpec => ({ shape: 'comb', count, corners: 2000 });

/** A station's hourly readings of a warm dry day near the machine. */
function warmDay(date: string) {
  const midnight = Date.parse(`${date}T00:00:00+01:00`);
  return Array.from({ length: 24 }, (_, hour) => {
    const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
    return {
      stationId: 'BENCH-HOSTILE',
      machineId: null,
      ts: new Date(midnight + hour * HOUR_MS + 30 * 60_000),
      lat: CENTRE.lat + 0.001,
      lng: CENTRE.lng,
      temperature: 12 + 12 * daylight,
      humidity: 85 - 40 * daylight,
      rain: 0,
      wind: 2,
      solarRadiation: 600 * daylight,
    };
  });
}

runBenchmark('hostile-geometry', 900_000, async () => {
  const server = await startBenchServer(options);
  const insider = ChildScript.start<HostileRequest, HostileEvent>(
    new URL('./support/hostile-client-process.ts', import.meta.url),
  );
  const delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const { app } = server;
    const { db } = app.database;
    await app.waterAccounting.stop();
    printTitle('Hostile geometry from an insider: the event loop while it is checked', {
      broker: server.setting.broker,
      database: server.setting.database,
      machine: `an arm of ${ARM_M} m (about ${formatNumber(Math.round((Math.PI * ARM_M * ARM_M) / 100))} cells of 10 m)`,
    });
    const sprinkler = await insertSprinkler(db, {
      internalId: `BENCH-HOSTILE-${randomBytes(3).toString('hex')}`,
      name: 'Hostile',
      lat: CENTRE.lat.toFixed(6),
      lng: CENTRE.lng.toFixed(6),
      armLength: ARM_M,
    });
    const farmer = await server.createUser();
    const watcher = await server.createUser();
    await grantAccess(db, sprinkler.id, farmer.id, 'control');
    await grantAccess(db, sprinkler.id, watcher.id, 'watch');
    const secret = (await server.registerControllers([sprinkler.internalId]))[sprinkler.internalId]!;
    const yesterday = localDate(TIME_ZONE, Date.now() - 86_400_000);
    const emergence = addDays(yesterday, -6);
    for (let day = 0; day <= 6; day += 1) await db.insert(weatherReadings).values(warmDay(addDays(emergence, day)));
    const dottedEmergence = emergence.split('-').reverse().join('.');

    await insider.ask({ type: 'start', baseUrl: server.baseUrl, origin: { lng: 17.19, lat: 52.297 } }, 'started');
    await insider.ask({ type: 'login', as: 'control', email: farmer.email, password: USER_PASSWORD }, 'ready');
    await insider.ask({ type: 'login', as: 'watcher', email: watcher.email, password: USER_PASSWORD }, 'ready');

    const worst = { loopMs: 0, healthMs: 0 };
    const report = (label: string, outcome: Outcome) => {
      const loopMs = delay.max / 1e6;
      delay.reset();
      worst.loopMs = Math.max(worst.loopMs, loopMs);
      worst.healthMs = Math.max(worst.healthMs, outcome.longestHealthMs);
      printSection(label);
      const answers = outcome.statuses
        .map((status, index) =>
          status === 0
            ? 'published'
            : status === CLOSED
              ? 'refused: closed before the body was sent (413 by its length)'
              : `${status}${outcome.codes[index] ? ` ${outcome.codes[index]}` : ''}`,
        )
        .filter((answer, index, all) => all.indexOf(answer) === index)
        .join(', ');
      const sizes =
        outcome.bytes > 0
          ? `, ${formatNumber(outcome.corners)} corners, ${formatNumber(Math.round(outcome.bytes / 1024))} KB`
          : '';
      printFigure('answer', `${answers}${sizes}`);
      printFigure('took', outcome.ms.map((ms) => `${formatNumber(ms)} ms`).join(', '));
      printTargeted('event loop, longest delay', loopMs, 'ms', { atMost: GOAL_MS });
      printTargeted('health seen by a client, longest', outcome.longestHealthMs, 'ms', { atMost: GOAL_MS });
    };
    const balanceCalls = async (after: string) => {
      report(
        `the water balance, ${options.calls} times as the watcher, ${after}`,
        await insider.ask(
          { type: 'get', as: 'watcher', path: `/api/sprinkler/${sprinkler.id}/water-balance/`, times: options.calls },
          'outcome',
        ),
      );
      report(
        `the next irrigation, ${options.calls} times as the watcher, ${after}`,
        await insider.ask(
          { type: 'get', as: 'watcher', path: '/api/sprinkler/next-irrigation/', times: options.calls },
          'outcome',
        ),
      );
    };
    const importMap = async (label: string, spec: ShapeSpec) => {
      delay.reset();
      report(
        `area map import: ${label}`,
        await insider.ask(
          { type: 'area-map', as: 'control', sprinklerId: sprinkler.id, spec, emergence: dottedEmergence },
          'outcome',
        ),
      );
      await balanceCalls(`with the map of ${label} asked for`);
    };
    const sendProgram = async (label: string, spec: ShapeSpec) => {
      delay.reset();
      report(
        `program: ${label}`,
        await insider.ask({ type: 'program', as: 'control', sprinklerId: sprinkler.id, spec }, 'outcome'),
      );
    };
    const publish = async (label: string, spec: ShapeSpec) => {
      delay.reset();
      const outcome = await insider.ask(
        {
          type: 'publish',
          brokerUrl: app.mqttUrl,
          machineId: sprinkler.internalId,
          secret,
          spec,
          settleMs: SETTLE_MS,
        },
        'outcome',
      );
      const [state] = await db
        .select({ program: machineState.programName })
        .from(machineState)
        .where(eq(machineState.machineId, sprinkler.internalId));
      report(
        `controller's program message: ${label} (the machine's program now: ${state?.program ?? 'none'})`,
        outcome,
      );
    };

    await importMap('95 combs of 2,000 corners', comb(95));
    await importMap('5 combs of 2,000 corners', comb(5));
    await importMap('5 zigzag shells of 1,000 corners with a comb hole of 1,000', {
      shape: 'holes',
      count: 5,
      corners: 2000,
    });
    await importMap('5 zigzags of 2,000 corners', { shape: 'zigzag', count: 5, corners: 2000 });
    await sendProgram('30 combs of 2,000 corners', comb(30));
    await sendProgram('5 combs of 2,000 corners', comb(5));
    await publish('9 combs of 2,000 corners', comb(9));
    await publish('5 combs of 2,000 corners', comb(5));
    await balanceCalls('with the last program the machine reported');

    printSection('over the whole run');
    printTargeted('event loop, longest delay', worst.loopMs, 'ms', { atMost: GOAL_MS });
    printTargeted('health seen by a client, longest', worst.healthMs, 'ms', { atMost: GOAL_MS });
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as {
      status: string;
      eventLoopDelayMs?: { p99: number; max: number };
    };
    if (health.eventLoopDelayMs) {
      printTargeted('health: loop delay, minute max', health.eventLoopDelayMs.max, 'ms', {
        atMost: GOAL_MS,
      });
      printFigure('health: loop delay, minute p99', `${formatNumber(health.eventLoopDelayMs.p99, 1)} ms`);
    } else {
      printNote('health does not report the event loop delay on this code');
    }
    printFigure('health: status', health.status);
  } finally {
    delay.disable();
    await insider.end();
    await server.close();
  }
});
