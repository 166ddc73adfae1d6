import { adminEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, signedIn } from '../../http/request-context';
import type { AdminService } from './admin.service';

export const adminRoutes: FastifyPluginAsync<{ admin: AdminService }> = async (app, { admin }) => {
  const access = 'admin';

  endpointRoute(app, adminEndpoints.users, { access }, async (request) => admin.listUsers(request.query));

  endpointRoute(app, adminEndpoints.sprinklers, { access }, async (request) => admin.listSprinklers(request.query));

  endpointRoute(app, adminEndpoints.changePermissions, {}, async (request) =>
    admin.changePermissions(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );
};
