import type { Queryable } from '../../db/client';
import { type MailSecret, SECRET_PLACEHOLDER, type SecretIssuer } from './mail-secrets';
import type { OutgoingMail } from './mail-transport';
import { enqueueMail } from './mail.repository';
import type { OutboxWorker } from './outbox-worker';

/** Outgoing mail: queued with what caused it, sent by the outbox worker. */
export class MailService {
  constructor(
    private readonly outbox: OutboxWorker,
    /** Where mail goes, safe to print. */
    readonly description: string,
    private readonly secretIssuers: Map<string, SecretIssuer>,
  ) {}

  /** Pass the transaction that does what the mail tells about, so neither exists without the other. */
  queue(db: Queryable, mail: OutgoingMail): Promise<void> {
    return enqueueMail(db, mail);
  }

  /**
   * Queues a mail whose link carries a secret, written by `compose` around the secret it is given:
   * the outbox keeps a placeholder, and `secret.issuer` makes the secret only as the mail is sent.
   */
  queueWithSecret(db: Queryable, compose: (secret: string) => OutgoingMail, secret: MailSecret): Promise<void> {
    if (!this.secretIssuers.has(secret.issuer)) throw new Error(`no issuer of mailed secrets: ${secret.issuer}`);
    const mail = compose(SECRET_PLACEHOLDER);
    if (!mail.text.includes(SECRET_PLACEHOLDER) || !mail.html.includes(SECRET_PLACEHOLDER)) {
      throw new Error('a mail queued with a secret must show it in its text and its HTML');
    }
    return enqueueMail(db, mail, secret);
  }

  /** Names what makes the secrets of the mails queued with `issuer` (registered as a module loads). */
  issueSecretsWith(issuer: string, issue: SecretIssuer): void {
    this.secretIssuers.set(issuer, issue);
  }

  /** Call once the transaction that queued mail has committed: the worker sends it soon rather than at its next poll. */
  wake(): void {
    this.outbox.wake();
  }

  /** Sends every mail that is due now and returns how many went out. */
  drain(): Promise<number> {
    return this.outbox.drain();
  }
}
