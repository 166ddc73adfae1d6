import { adviceEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, signedIn } from '../../http/request-context';
import type { ApplicationDepthService } from './application-depth.service';

export const applicationDepthRoutes: FastifyPluginAsyncZod<{ applicationDepth: ApplicationDepthService }> = async (
  app,
  { applicationDepth },
) => {
  endpointRoute(app, adviceEndpoints.applicationDepth, {}, async (request) =>
    applicationDepth.get(signedIn(request).user, request.params.id),
  );

  // A machine's setting, as its other settings: administrators only.
  endpointRoute(app, adviceEndpoints.setApplicationDepth, { access: 'admin' }, async (request) =>
    applicationDepth.set(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );
};
