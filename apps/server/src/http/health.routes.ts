import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const HealthSchema = z.strictObject({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  /** The API works without the broker; machines are then offline and commands go unanswered. */
  broker: z.enum(['connected', 'unreachable']),
  /** Reports dropped since start because no controller is registered under their machine ID. */
  unregisteredReportsDropped: z.number().int().nonnegative(),
});

/** Answers once the database answers: for load balancers and the start-up check. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { tags: ['health'], response: { 200: HealthSchema } } },
    async () => {
      await app.database.db.execute(sql`select 1`);
      return {
        status: 'ok' as const,
        database: app.database.kind,
        broker: app.gateway.connected ? ('connected' as const) : ('unreachable' as const),
        unregisteredReportsDropped: app.gateway.unadmittedCount,
      };
    },
  );
};
