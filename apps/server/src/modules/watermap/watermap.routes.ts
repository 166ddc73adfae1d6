import { IdParamsSchema, WatermapQuerySchema, WatermapResponseSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { compiledSerializerCompiler } from '../../http/compiled-serializer';
import { signedIn } from '../../http/request-context';
import type { WatermapService } from './watermap.service';

export const watermapRoutes: FastifyPluginAsyncZod<{ watermap: WatermapService }> = async (app, { watermap }) => {
  app.get(
    '/sprinkler/:id/watermap/',
    {
      schema: {
        tags: ['sprinklers'],
        params: IdParamsSchema,
        querystring: WatermapQuerySchema,
        response: { 200: WatermapResponseSchema },
      },
      // A season is thousands of cells: see compiled-serializer.ts.
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => watermap.watermap(signedIn(request).user, request.params.id, request.query),
  );
};
