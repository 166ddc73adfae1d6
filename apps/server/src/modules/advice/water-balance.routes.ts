import { IdParamsSchema, WaterBalanceQuerySchema, WaterBalanceSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { compiledSerializerCompiler } from '../../http/compiled-serializer';
import { signedIn } from '../../http/request-context';
import type { WaterBalanceService } from './water-balance.service';

export const waterBalanceRoutes: FastifyPluginAsyncZod<{ waterBalance: WaterBalanceService }> = async (
  app,
  { waterBalance },
) => {
  // A safe GET: every user the machine is granted to, at either level, reads it.
  app.get(
    '/sprinkler/:id/water-balance/',
    {
      schema: {
        tags: ['advice'],
        params: IdParamsSchema,
        querystring: WaterBalanceQuerySchema,
        response: { 200: WaterBalanceSchema },
      },
      // Thousands of cells: see compiled-serializer.ts.
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => waterBalance.balance(signedIn(request).user, request.params.id, request.query),
  );
};
