import {
  AccountAlertSettingsSchema,
  AlertDefaultsSchema,
  AlertSettingsSchema,
  PushKeySchema,
  PushSubscriptionBodySchema,
  PushUnsubscribeBodySchema,
} from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type StreamGuard, eventStreams } from '../../http/event-stream';
import type { OutboundGuard } from '../../http/outbound';
import { signedIn } from '../../http/request-context';
import type { AlertFeed } from './alert-feed';
import type { AlertsService } from './alerts.service';
import type { PushSender } from './push-sender';

const tags = ['alerts'];

/**
 * The live alerts of the signed-in user (server-sent events), their alert settings, the
 * administrators' defaults, and the browsers that receive Web Push.
 */
export const alertsRoutes: FastifyPluginAsyncZod<{
  alerts: AlertsService;
  feed: AlertFeed;
  push: PushSender;
  guard: StreamGuard;
  outbound: OutboundGuard;
}> = async (app, { alerts, feed, push, guard, outbound }) => {
  const openStream = eventStreams(app, guard);

  app.get('/alerts/events', { schema: { tags, produces: ['text/event-stream'] } }, async (request, reply) => {
    const { user } = signedIn(request);
    const stream = openStream(request, reply);
    stream.onEnd(feed.subscribe(user.id, (alert) => stream.send('alert', alert)));
  });

  app.get('/account/alerts/', { schema: { tags, response: { 200: AccountAlertSettingsSchema } } }, async (request) =>
    alerts.settingsOf(signedIn(request).user),
  );

  app.put(
    '/account/alerts/',
    { schema: { tags, body: AlertSettingsSchema, response: { 200: AccountAlertSettingsSchema } } },
    async (request) => alerts.saveSettings(signedIn(request).user, request.body),
  );

  app.delete('/account/alerts/', { schema: { tags, response: { 200: AccountAlertSettingsSchema } } }, async (request) =>
    alerts.resetSettings(signedIn(request).user),
  );

  app.get(
    '/admin/alert-defaults/',
    { config: { access: 'admin' }, schema: { tags, response: { 200: AlertDefaultsSchema } } },
    async () => alerts.defaults(),
  );

  app.put(
    '/admin/alert-defaults/',
    {
      config: { access: 'admin' },
      schema: { tags, body: AlertDefaultsSchema, response: { 200: AlertDefaultsSchema } },
    },
    async (request) => alerts.saveDefaults(request.body),
  );

  app.get('/push/key', { schema: { tags, response: { 200: PushKeySchema } } }, async () => ({
    publicKey: push.publicKey(),
  }));

  app.post(
    '/push/subscriptions/',
    { schema: { tags, body: PushSubscriptionBodySchema, response: { 204: z.null() } } },
    async (request, reply) => {
      // A push service is an address the browser chose: the outbound rules refuse internal ones.
      await outbound.check(request.body.endpoint);
      await push.subscribe(signedIn(request).user, request.body);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/push/subscriptions/',
    { schema: { tags, body: PushUnsubscribeBodySchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await push.unsubscribe(signedIn(request).user, request.body.endpoint);
      return reply.status(204).send(null);
    },
  );
};
