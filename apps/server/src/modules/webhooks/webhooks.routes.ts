import {
  IdParamsSchema,
  WebhookCreateBodySchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookTestResultSchema,
  WebhookUpdateBodySchema,
} from '@pivot/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from '../../http/request-context';
import type { WebhookOwnership } from './webhooks.repository';
import type { WebhooksService } from './webhooks.service';

const tags = ['webhooks'];

/**
 * The same five calls twice: a user's own webhooks under /account/webhooks/, and the
 * administrators' webhooks for every alert under /admin/webhooks/.
 */
export const webhooksRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  const places = [
    {
      prefix: '/account/webhooks',
      access: 'user' as const,
      ownership: (request: FastifyRequest): WebhookOwnership => ({
        scope: 'own',
        ownerUserId: signedIn(request).user.id,
      }),
    },
    { prefix: '/admin/webhooks', access: 'admin' as const, ownership: (): WebhookOwnership => ({ scope: 'all' }) },
  ];

  for (const { prefix, access, ownership } of places) {
    app.get(
      `${prefix}/`,
      { config: { access }, schema: { tags, response: { 200: WebhookListSchema } } },
      async (request) => webhooks.list(ownership(request)),
    );

    app.post(
      `${prefix}/`,
      {
        config: { access, idempotent: true },
        schema: { tags, body: WebhookCreateBodySchema, response: { 201: WebhookSchema } },
      },
      async (request, reply) => {
        const created = await webhooks.add(signedIn(request).user, ownership(request), request.body.url);
        return reply.status(201).send(created);
      },
    );

    app.patch(
      `${prefix}/:id/`,
      {
        config: { access },
        schema: { tags, params: IdParamsSchema, body: WebhookUpdateBodySchema, response: { 200: WebhookSchema } },
      },
      async (request) => webhooks.setPaused(ownership(request), request.params.id, request.body.paused),
    );

    app.delete(
      `${prefix}/:id/`,
      { config: { access }, schema: { tags, params: IdParamsSchema, response: { 204: z.null() } } },
      async (request, reply) => {
        await webhooks.remove(ownership(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      `${prefix}/:id/test`,
      {
        config: { access, idempotent: true },
        schema: { tags, params: IdParamsSchema, response: { 200: WebhookTestResultSchema } },
      },
      async (request) => webhooks.sendTest(signedIn(request).user, ownership(request), request.params.id),
    );
  }
};
