import { adviceEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { NextIrrigationService } from './next-irrigation.service';

export const nextIrrigationRoutes: FastifyPluginAsyncZod<{ nextIrrigation: NextIrrigationService }> = async (
  app,
  { nextIrrigation },
) => {
  // The machines table's "Next irrigation", apart from the list so that the list costs nothing more.
  endpointRoute(app, adviceEndpoints.nextIrrigation, { etag: true }, async (request) =>
    nextIrrigation.list(signedIn(request).user, request.query),
  );
};
