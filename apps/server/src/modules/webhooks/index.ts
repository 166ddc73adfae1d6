import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { WebhookSender } from './webhook-sender';
import { webhooksRoutes } from './webhooks.routes';
import { WebhooksService } from './webhooks.service';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhooksService;
    webhookSender: WebhookSender;
  }
}

export type { WebhooksService } from './webhooks.service';

/**
 * Alert webhooks (docs/alerts.md): every alert raised is queued for the webhooks that should hear
 * of it, in the incident's transaction, and sent signed through the outbound guard.
 */
export const webhooksModule = fp(
  async (app: FastifyInstance, options: Pick<Config, 'publicUrl'>) => {
    const { db } = app.database;
    const webhooks = new WebhooksService({
      db,
      outbound: app.outbound,
      alerts: app.alerts,
      logs: app.logs,
      users: app.users,
      publicUrl: options.publicUrl,
    });
    const sender = new WebhookSender({ db, outbound: app.outbound, logs: app.logs, logger: app.log });
    app.alerts.alsoDeliverThrough((tx, alerts) => webhooks.queueAll(tx, alerts));
    app.alerts.wakeOnRaise(() => sender.wake());
    app.decorate('webhooks', webhooks);
    app.decorate('webhookSender', sender);
    await app.register(webhooksRoutes, { prefix: '/api', webhooks });
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', async () => sender.stop());
  },
  { name: 'webhooks', dependencies: ['database', 'authentication', 'outbound', 'users', 'logs', 'alerts'] },
);
