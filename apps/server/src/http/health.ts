import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EVENT_LOOP_DELAY_LIMIT_MS, EventLoopDelay } from './event-loop-delay';

/** Something wrong that the server works around: a stable code and a sentence for whoever reads it. */
export type HealthProblem = { code: string; message: string };
/** Asked at every health request: cheap (a look in memory, or one indexed query), since load balancers ask every few seconds. */
export type HealthCheck = () => HealthProblem[] | Promise<HealthProblem[]>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Modules add what health reports of them: `app.health.check(() => problems)`. */
    health: { check: (check: HealthCheck) => void };
  }
}

const HealthSchema = z.strictObject({
  /** degraded: the server answers, but something it works around needs attention (see problems). */
  status: z.enum(['ok', 'degraded']),
  /** Each as "code: sentence", such as "broker_unreachable: …"; empty when ok. */
  problems: z.array(z.string()),
  database: z.enum(['pglite', 'postgres']),
  /** The API works without the broker; machines are then offline and commands go unanswered. */
  broker: z.enum(['connected', 'unreachable']),
  /**
   * Reports this instance dropped since it started because no controller is registered under
   * their machine ID: stored nowhere, so counted per instance (docs/operations.md, "Health").
   */
  unregisteredReportsDropped: z.number().int().nonnegative(),
  /**
   * Telemetry reports this instance received since it started: with several instances on a
   * shared subscription, each one's share of the fleet.
   */
  reportsReceived: z.number().int().nonnegative(),
  /**
   * Machine messages this instance acknowledged to the broker and has not stored yet (0 when it
   * has caught up): with the broker's queue for it empty, nothing is on its way to the database.
   */
  messagesUnstored: z.number().int().nonnegative(),
  /**
   * This instance's live event streams: open now, what it holds for them that their clients have
   * not read yet (KiB), and how many it closed since it started because their client stopped reading.
   */
  liveStreams: z.strictObject({
    open: z.number().int().nonnegative(),
    bufferedKiB: z.number().int().nonnegative(),
    closedStalled: z.number().int().nonnegative(),
  }),
  /**
   * How long this instance's looks for incidents took over the last minute, ms (null when it
   * made none: another instance looked): a 95th percentile above 1000 ms delays incidents.
   */
  incidentLookMs: z.strictObject({
    p95: z.number().int().nonnegative().nullable(),
    max: z.number().int().nonnegative().nullable(),
    looks: z.number().int().nonnegative(),
  }),
  /**
   * How late this instance's event loop ran over the last minute, ms: the worst 99th percentile
   * of a 10 s slice and the longest delay; a longest delay past 1000 ms is `event_loop_delay`.
   */
  eventLoopDelayMs: z.strictObject({ p99: z.number().nonnegative(), max: z.number().nonnegative() }),
  /**
   * This instance's memory, MB (Node's process.memoryUsage()): resident in all, V8's heap as
   * reserved and as used (live objects and garbage not yet collected), and memory held outside
   * it (buffers): which of them grows tells where a server's RSS goes.
   */
  memoryMb: z.strictObject({
    resident: z.number().nonnegative(),
    heapTotal: z.number().nonnegative(),
    heapUsed: z.number().nonnegative(),
    external: z.number().nonnegative(),
  }),
});

const megabytes = (bytes: number) => Math.round(bytes / 1e5) / 10;

function memoryInMegabytes() {
  const { rss, heapTotal, heapUsed, external } = process.memoryUsage();
  return {
    resident: megabytes(rss),
    heapTotal: megabytes(heapTotal),
    heapUsed: megabytes(heapUsed),
    external: megabytes(external),
  };
}

function eventLoopProblems(delay: { p99: number; max: number }): HealthProblem[] {
  if (delay.max <= EVENT_LOOP_DELAY_LIMIT_MS) return [];
  return [
    {
      code: 'event_loop_delay',
      message: `the event loop ran up to ${delay.max} ms late in the last minute (limit ${EVENT_LOOP_DELAY_LIMIT_MS} ms): requests and machine messages waited as long`,
    },
  ];
}

const healthRoutes: FastifyPluginAsyncZod<{ checks: HealthCheck[]; eventLoop: EventLoopDelay }> = async (
  app,
  { checks, eventLoop },
) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { tags: ['health'], response: { 200: HealthSchema } } },
    async () => {
      await app.database.db.execute(sql`select 1`);
      const broker = app.gateway.connected ? ('connected' as const) : ('unreachable' as const);
      const eventLoopDelayMs = eventLoop.lastMinute();
      const problems = [
        ...(broker === 'unreachable'
          ? [
              {
                code: 'broker_unreachable',
                message: 'the MQTT broker cannot be reached: machines show offline and commands are refused',
              },
            ]
          : []),
        ...eventLoopProblems(eventLoopDelayMs),
        ...(await Promise.all(checks.map((check) => check()))).flat(),
      ].map(({ code, message }) => `${code}: ${message}`);
      return {
        status: problems.length === 0 ? ('ok' as const) : ('degraded' as const),
        problems,
        database: app.database.kind,
        broker,
        unregisteredReportsDropped: app.gateway.unadmittedCount,
        reportsReceived: app.telemetry.receivedTotal(),
        messagesUnstored: app.gateway.unstoredCount,
        liveStreams: app.openStreams.figures(),
        incidentLookMs: app.incidents.lookTimes(),
        eventLoopDelayMs,
        memoryMb: memoryInMegabytes(),
      };
    },
  );
};

/**
 * `GET /api/health`: 500 when the database does not answer; otherwise 200, `ok` or `degraded`
 * with the problems the core and the modules report (docs/operations.md). A degraded server
 * still serves, so it stays 200: a load balancer that took it out would make things worse.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    const checks: HealthCheck[] = [];
    app.decorate('health', { check: (check: HealthCheck) => void checks.push(check) });
    // From ready on: loading the modules and the database's first statements are no request's wait.
    const eventLoop = new EventLoopDelay();
    app.addHook('onReady', async () => eventLoop.start());
    app.addHook('onClose', () => eventLoop.stop());
    await app.register(healthRoutes, { prefix: '/api', checks, eventLoop });
  },
  { name: 'health', dependencies: ['database', 'machine-gateway', 'authentication'] },
);
