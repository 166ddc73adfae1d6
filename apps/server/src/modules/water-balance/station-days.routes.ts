import { weatherEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { StationDaysService } from './station-days.service';

export const stationDaysRoutes: FastifyPluginAsyncZod<{ stationDays: StationDaysService }> = async (
  app,
  { stationDays },
) => {
  endpointRoute(app, weatherEndpoints.stationDays, {}, async (request) =>
    stationDays.days(signedIn(request).user, request.params.id, request.query),
  );
};
