import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { SecretIssuer } from './mail-secrets';
import { createMailTransport } from './mail-transport';
import { MailService } from './mail.service';
import { OutboxWorker } from './outbox-worker';

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailService;
  }
}

export type { MailService } from './mail.service';
export type { OutgoingMail } from './mail-transport';
export type { SecretIssuer } from './mail-secrets';
export { activationMail, emailChangedMail, escapeHtml, farmInvitationMail, passwordResetMail } from './mail-templates';

/** Mail: the durable outbox and the worker that sends it, by SMTP or into the outbox folder. */
export const mailModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>) => {
    const transport = createMailTransport(config);
    const secretIssuers = new Map<string, SecretIssuer>();
    const outbox = new OutboxWorker({ db: app.database.db, transport, logger: app.log, secretIssuers });
    app.decorate('mail', new MailService(outbox, transport.description, secretIssuers));
    app.addHook('onReady', async () => outbox.start());
    app.addHook('onClose', () => outbox.stop());
  },
  { name: 'mail', dependencies: ['database'] },
);
