import { quarantineEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route';
import type { QuarantineService } from './quarantine.service';

/** The administrators' list of machine messages set aside, newest first. */
export const quarantineRoutes: FastifyPluginAsync<{ quarantine: QuarantineService }> = async (app, { quarantine }) => {
  endpointRoute(app, quarantineEndpoints.list, { access: 'admin' }, async (request) => quarantine.list(request.query));
};
