import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/client';

const HealthSchema = z.strictObject({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  /** The API works without the broker; machines are then offline and commands go unanswered. */
  broker: z.enum(['connected', 'unreachable']),
});

/** Answers once the database answers: for load balancers and the start-up check. */
export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle; broker: { connected: boolean } }> = async (
  app,
  { database, broker },
) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { tags: ['health'], response: { 200: HealthSchema } } },
    async () => {
      await database.db.execute(sql`select 1`);
      return {
        status: 'ok' as const,
        database: database.kind,
        broker: broker.connected ? ('connected' as const) : ('unreachable' as const),
      };
    },
  );
};
