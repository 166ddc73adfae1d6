import { IdParamsSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eventStreams } from '../../http/event-stream';
import { signedIn } from '../../http/request-context';
import type { TelemetryService } from '../telemetry';
import { presentLiveEvent } from './sprinklers.presenter';
import type { SprinklersService } from './sprinklers.service';

/**
 * GET /sprinkler/{id}/events: a server-sent event stream of the machine's telemetry,
 * online/offline changes and program changes, for as long as the browser keeps it open.
 */
export const liveRoutes: FastifyPluginAsyncZod<{ sprinklers: SprinklersService; telemetry: TelemetryService }> = async (
  app,
  { sprinklers, telemetry },
) => {
  const openStream = eventStreams(app);

  app.get(
    '/sprinkler/:id/events',
    { schema: { tags: ['sprinklers'], params: IdParamsSchema, produces: ['text/event-stream'] } },
    async (request, reply) => {
      const sprinkler = await sprinklers.accessible(signedIn(request).user, request.params.id);
      const stream = openStream(request, reply);
      stream.onEnd(
        telemetry.watch(sprinkler.internalId, (event) => {
          const live = presentLiveEvent(sprinkler, event);
          stream.send(live.type, live);
        }),
      );
    },
  );
};
