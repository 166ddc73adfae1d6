import { CropSeasonListSchema, CropSeasonsQuerySchema, CropSeasonsSchema, IdParamsSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientInfo, signedIn } from '../../http/request-context';
import type { CropSeasonsService } from './crop-seasons.service';

const tags = ['advice'];

export const cropSeasonsRoutes: FastifyPluginAsyncZod<{ cropSeasons: CropSeasonsService }> = async (
  app,
  { cropSeasons },
) => {
  app.get(
    '/sprinkler/:id/crop-seasons/',
    { schema: { tags, params: IdParamsSchema, response: { 200: CropSeasonListSchema } } },
    async (request) => cropSeasons.list(signedIn(request).user, request.params.id),
  );

  app.put(
    '/sprinkler/:id/crop-seasons/',
    {
      schema: {
        tags,
        params: IdParamsSchema,
        querystring: CropSeasonsQuerySchema,
        body: CropSeasonsSchema,
        response: { 200: CropSeasonListSchema },
      },
    },
    async (request) =>
      cropSeasons.replace(signedIn(request).user, request.params.id, request.body, request.query, clientInfo(request)),
  );
};
