import { logsEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { LogsService } from './logs.service';

export const logsRoutes: FastifyPluginAsync<{ logs: LogsService }> = async (app, { logs }) => {
  endpointRoute(app, logsEndpoints.list, {}, async (request) => logs.list(signedIn(request).user, request.query));

  endpointRoute(app, logsEndpoints.markRead, {}, async (request) => {
    const { user } = signedIn(request);
    if (request.body) await logs.markRead(user, request.body.ids);
    else await logs.markAllRead(user);
    return { message: 'Marked as read' };
  });
};
