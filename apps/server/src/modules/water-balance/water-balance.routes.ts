import { adviceEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { WaterBalanceService } from './water-balance.service';

export const waterBalanceRoutes: FastifyPluginAsyncZod<{ waterBalance: WaterBalanceService }> = async (
  app,
  { waterBalance },
) => {
  // Safe GETs: every user the machine is granted to, at either level, reads them. Thousands of
  // cells: see compiled-serializer.ts.
  endpointRoute(app, adviceEndpoints.waterBalance, { compiledAnswer: true }, async (request) =>
    waterBalance.balance(signedIn(request).user, request.params.id, request.query),
  );

  // The season day by day (docs/advice.md, "The season series"): the same readers and refusals.
  endpointRoute(app, adviceEndpoints.waterBalanceSeason, { compiledAnswer: true }, async (request) =>
    waterBalance.season(signedIn(request).user, request.params.id, request.query),
  );
};
