import { alertsEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route';
import { type StreamGuard, eventStreams } from '../../http/event-stream';
import type { OutboundGuard } from '../../http/outbound';
import { signedIn } from '../../http/request-context';
import type { AlertFeed } from './alert-feed';
import type { AlertsService } from './alerts.service';
import type { PushSender } from './push-sender';

/**
 * The live alerts of the signed-in user (server-sent events), their alert settings, the
 * administrators' defaults, and the browsers that receive Web Push.
 */
export const alertsRoutes: FastifyPluginAsync<{
  alerts: AlertsService;
  feed: AlertFeed;
  push: PushSender;
  guard: StreamGuard;
  outbound: OutboundGuard;
}> = async (app, { alerts, feed, push, guard, outbound }) => {
  const openStream = eventStreams(app, guard);

  endpointRoute(app, alertsEndpoints.events, {}, async (request, reply) => {
    const { user } = signedIn(request);
    const stream = openStream(request, reply);
    stream.onEnd(feed.subscribe(user.id, (alert) => stream.send('alert', alert)));
  });

  endpointRoute(app, alertsEndpoints.settings, {}, async (request) => alerts.settingsOf(signedIn(request).user));

  endpointRoute(app, alertsEndpoints.saveSettings, {}, async (request) =>
    alerts.saveSettings(signedIn(request).user, request.body),
  );

  endpointRoute(app, alertsEndpoints.resetSettings, {}, async (request) =>
    alerts.resetSettings(signedIn(request).user),
  );

  endpointRoute(app, alertsEndpoints.defaults, { access: 'admin' }, async () => alerts.defaults());

  endpointRoute(app, alertsEndpoints.saveDefaults, { access: 'admin' }, async (request) =>
    alerts.saveDefaults(request.body),
  );

  endpointRoute(app, alertsEndpoints.pushKey, {}, async () => ({ publicKey: push.publicKey() }));

  endpointRoute(app, alertsEndpoints.subscribePush, {}, async (request) => {
    // A push service is an address the browser chose: the outbound rules refuse internal ones.
    await outbound.check(request.body.endpoint);
    await push.subscribe(signedIn(request).user, request.body);
  });

  endpointRoute(app, alertsEndpoints.unsubscribePush, {}, async (request) =>
    push.unsubscribe(signedIn(request).user, request.body.endpoint),
  );
};
