import { webhooksEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { WebhookOwnership } from './webhooks.repository';
import type { WebhooksService } from './webhooks.service';

/**
 * The same five calls twice: a user's own webhooks under /account/webhooks/, and the
 * administrators' webhooks for every alert under /admin/webhooks/.
 */
export const webhooksRoutes: FastifyPluginAsync<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  const places = [
    {
      calls: webhooksEndpoints.account,
      access: 'user' as const,
      ownership: (request: FastifyRequest): WebhookOwnership => ({
        scope: 'own',
        ownerUserId: signedIn(request).user.id,
      }),
    },
    { calls: webhooksEndpoints.admin, access: 'admin' as const, ownership: (): WebhookOwnership => ({ scope: 'all' }) },
  ];

  for (const { calls, access, ownership } of places) {
    endpointRoute(app, calls.list, { access }, async (request) => webhooks.list(ownership(request)));

    endpointRoute(app, calls.add, { access, idempotent: true }, async (request) =>
      webhooks.add(signedIn(request).user, ownership(request), request.body.url),
    );

    endpointRoute(app, calls.setPaused, { access }, async (request) =>
      webhooks.setPaused(ownership(request), request.params.id, request.body.paused),
    );

    endpointRoute(app, calls.remove, { access }, async (request) =>
      webhooks.remove(ownership(request), request.params.id),
    );

    endpointRoute(app, calls.sendTest, { access, idempotent: true }, async (request) =>
      webhooks.sendTest(signedIn(request).user, ownership(request), request.params.id),
    );
  }
};
