import { machineHistoryEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { WatermapService } from './watermap.service';

export const watermapRoutes: FastifyPluginAsyncZod<{ watermap: WatermapService }> = async (app, { watermap }) => {
  // A season is thousands of cells: see compiled-serializer.ts.
  endpointRoute(app, machineHistoryEndpoints.watermap, { compiledAnswer: true }, async (request) =>
    watermap.watermap(signedIn(request).user, request.params.id, request.query),
  );
};
