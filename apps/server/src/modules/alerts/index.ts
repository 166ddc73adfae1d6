import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Config, PRODUCT_NAME } from '../../config';
import { AlertFeed } from './alert-feed';
import { AlertMailer } from './alert-mailer';
import { alertsRoutes } from './alerts.routes';
import { AlertsService } from './alerts.service';
import { PushSender } from './push-sender';

declare module 'fastify' {
  interface FastifyInstance {
    alerts: AlertsService;
    alertFeed: AlertFeed;
    alertMailer: AlertMailer;
    pushSender: PushSender;
  }
}

export type { AlertsService, RaisedAlert } from './alerts.service';
export { alertOfLogEntry } from './alerts.service';
export { alertWords, incidentTitle } from './alert-wording';

export type AlertsModuleOptions = Pick<Config, 'publicUrl' | 'mailFrom' | 'timeZone'>;

/** Who the push services may contact about this server: its https address, or the mail sender's address. */
function pushContact({ publicUrl, mailFrom }: Pick<Config, 'publicUrl' | 'mailFrom'>): string {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  return `mailto:${address.trim()}`;
}

/**
 * Alerts: who hears of which incident and how (settings, administrators' defaults), the live
 * alerts of the app, the e-mails (gathered, through the durable outbox) and Web Push.
 */
export const alertsModule = fp(
  async (app: FastifyInstance, options: AlertsModuleOptions) => {
    const { db } = app.database;
    const alerts = new AlertsService({ db, access: app.access, users: app.users });
    const feed = new AlertFeed({ db, logs: app.logs, alerts, logger: app.log });
    const mailer = new AlertMailer({
      db,
      logs: app.logs,
      users: app.users,
      mail: app.mail,
      publicUrl: options.publicUrl,
      productName: PRODUCT_NAME,
      timeZone: options.timeZone,
      logger: app.log,
    });
    const push = new PushSender({
      db,
      logs: app.logs,
      users: app.users,
      subject: pushContact(options),
      logger: app.log,
      // Every connection to a push service is checked by the outbound rules (http/outbound.ts).
      agent: app.outbound.httpsAgent(),
    });
    alerts.wakeOnRaise(() => {
      feed.wake();
      push.wake();
    });
    app.decorate('alerts', alerts);
    app.decorate('alertFeed', feed);
    app.decorate('alertMailer', mailer);
    app.decorate('pushSender', push);
    await app.register(alertsRoutes, {
      prefix: '/api',
      alerts,
      feed,
      push,
      guard: app.openStreams,
      outbound: app.outbound,
    });
    app.addHook('onReady', async () => {
      await push.start();
      await feed.start();
      mailer.start();
    });
    app.addHook('onClose', async () => {
      await feed.stop();
      await mailer.stop();
      await push.stop();
    });
  },
  { name: 'alerts', dependencies: ['database', 'authentication', 'outbound', 'access', 'users', 'logs', 'mail'] },
);
