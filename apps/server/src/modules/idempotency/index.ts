import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { RepeatingJob } from '../../time/repeating-job';
import { IdempotencyService } from './idempotency.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request is the first with its Idempotency-Key: its answer is saved for the repeats. */
    idempotencyKey: { userId: number; key: string } | null;
  }
}

const HEADER = 'idempotency-key';
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Makes the routes that declare `idempotent: true` (commands to machines, creating things)
 * safe to retry: a request with an `Idempotency-Key` header is carried out once per user and
 * key, and a repeat gets the first answer again (with `Idempotent-Replayed: true`). Registered
 * before the other modules, so that it sees their routes.
 */
export const idempotencyModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'commandTimeoutMs' | 'serverId'>) => {
    const idempotency = new IdempotencyService(app.database.db, config.commandTimeoutMs + 5000, {
      serverId: config.serverId,
      run: randomUUID(),
    });
    app.decorateRequest('idempotencyKey', null);

    const begin: preHandlerHookHandler = async (request, reply) => {
      const key = request.headers[HEADER];
      const userId = request.auth?.user.id;
      if (key === undefined || userId === undefined) return;
      const call = { userId, key: String(key), method: request.method, url: request.url, body: request.body };
      const outcome = await idempotency.begin(call);
      if (outcome === 'first') {
        request.idempotencyKey = { userId, key: call.key };
        return;
      }
      reply.status(outcome.status).header('idempotent-replayed', 'true');
      if (outcome.contentType) reply.header('content-type', outcome.contentType);
      return reply.send(outcome.body);
    };
    const finish: onSendHookHandler = async (request: FastifyRequest, reply, payload) => {
      const claimed = request.idempotencyKey;
      if (!claimed || typeof payload !== 'string') return payload;
      const contentType = reply.getHeader('content-type');
      await idempotency.finish(claimed, {
        status: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: payload,
      });
      return payload;
    };
    app.addHook('onRoute', (route) => {
      if (route.config?.idempotent !== true) return;
      const own = route.preHandler ?? [];
      route.preHandler = [...(Array.isArray(own) ? own : [own]), begin];
      // First of the answer's hooks: the answer is saved as the route wrote it, before compression
      // (@fastify/compress, added to each route earlier) turns one over 1 KB into a stream.
      const sent = route.onSend ?? [];
      route.onSend = [finish, ...(Array.isArray(sent) ? sent : [sent])];
    });

    const pruning = new RepeatingJob(() => idempotency.prune(), {
      everyMs: PRUNE_EVERY_MS,
      onError: (error) => app.log.warn({ err: error }, 'pruning idempotency keys failed'),
    });
    app.addHook('onReady', async () => {
      pruning.start();
      // A failure is logged by the job; the server starts all the same.
      await pruning.runNow().catch(() => undefined);
    });
    app.addHook('onClose', () => pruning.stop());
  },
  { name: 'idempotency', dependencies: ['database', 'authentication'] },
);
