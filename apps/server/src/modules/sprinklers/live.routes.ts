import { IdParamsSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../../http/request-context';
import type { TelemetryService } from '../telemetry';
import { presentLiveEvent } from './sprinklers.presenter';
import type { SprinklersService } from './sprinklers.service';

const HEARTBEAT_MS = 25_000;

/**
 * GET /sprinkler/{id}/events: a server-sent event stream of the machine's telemetry,
 * online/offline changes and program changes, for as long as the browser keeps it open.
 */
export const liveRoutes: FastifyPluginAsyncZod<{ sprinklers: SprinklersService; telemetry: TelemetryService }> = async (
  app,
  { sprinklers, telemetry },
) => {
  // Open streams would keep the server from closing: end them first.
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
  });

  app.get(
    '/sprinkler/:id/events',
    { schema: { tags: ['sprinklers'], params: IdParamsSchema, produces: ['text/event-stream'] } },
    async (request, reply) => {
      const sprinkler = await sprinklers.accessible(signedIn(request).user, request.params.id);
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      stream.write(': connected\n\n');
      const unsubscribe = telemetry.watch(sprinkler.internalId, (event) => {
        const live = presentLiveEvent(sprinkler, event);
        stream.write(`event: ${live.type}\ndata: ${JSON.stringify(live)}\n\n`);
      });
      const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        openStreams.delete(end);
        stream.end();
      };
      openStreams.add(end);
      request.raw.on('close', end);
    },
  );
};
