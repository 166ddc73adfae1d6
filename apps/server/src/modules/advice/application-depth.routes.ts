import { ApplicationDepthBodySchema, ApplicationDepthSchema, IdParamsSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientInfo, signedIn } from '../../http/request-context';
import type { ApplicationDepthService } from './application-depth.service';

const tags = ['advice'];

export const applicationDepthRoutes: FastifyPluginAsyncZod<{ applicationDepth: ApplicationDepthService }> = async (
  app,
  { applicationDepth },
) => {
  app.get(
    '/sprinkler/:id/application-depth/',
    { schema: { tags, params: IdParamsSchema, response: { 200: ApplicationDepthSchema } } },
    async (request) => applicationDepth.get(signedIn(request).user, request.params.id),
  );

  // A machine's setting, as its other settings: administrators only.
  app.patch(
    '/sprinkler/:id/application-depth/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        params: IdParamsSchema,
        body: ApplicationDepthBodySchema,
        response: { 200: ApplicationDepthSchema },
      },
    },
    async (request) =>
      applicationDepth.set(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );
};
