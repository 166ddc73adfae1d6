import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { type SecretIssuer, fillSecret } from './mail-secrets';
import type { MailTransport, OutgoingMail } from './mail-transport';
import { type OutboxMailRow, claimDueMails, markAttemptFailed, markCancelled, markSent } from './mail.repository';

const FIRST_RETRY_DELAY_MS = 30_000;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
// Mails are claimed one at a time, so the lease only has to outlast one delivery (the SMTP
// timeouts keep that to about a minute) and stopping never leaves claimed mails waiting on it.
const CLAIM_LEASE_MS = 5 * 60 * 1000;

export type OutboxWorkerOptions = {
  db: Database;
  transport: MailTransport;
  logger: FastifyBaseLogger;
  /** By name, what makes the secret of a mail that carries one (mail-secrets.ts); filled as modules load. */
  secretIssuers: ReadonlyMap<string, SecretIssuer>;
  pollIntervalMs?: number;
  maxAttempts?: number;
};

/**
 * Sends the mail outbox one mail at a time: on a poll, and soon after `wake()`. Any number of
 * workers may share one database; each mail is claimed by one of them. A mail that cannot be
 * sent is retried with growing delays until it has had `maxAttempts` tries.
 */
export class OutboxWorker {
  private readonly db: Database;
  private readonly transport: MailTransport;
  private readonly logger: FastifyBaseLogger;
  private readonly secretIssuers: ReadonlyMap<string, SecretIssuer>;
  private readonly pollIntervalMs: number;
  private readonly maxAttempts: number;
  private started = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private wokenWhilePolling = false;
  /** Each drain starts after the previous one ends, which keeps sends one at a time. */
  private lastDrain: Promise<unknown> = Promise.resolve();

  constructor({ db, transport, logger, secretIssuers, pollIntervalMs = 5000, maxAttempts = 12 }: OutboxWorkerOptions) {
    this.db = db;
    this.transport = transport;
    this.logger = logger;
    this.secretIssuers = secretIssuers;
    this.pollIntervalMs = pollIntervalMs;
    this.maxAttempts = maxAttempts;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Lets a send in progress finish, and leaves no timer behind. */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopping = true;
    try {
      await this.lastDrain;
    } finally {
      this.stopping = false;
    }
  }

  /** Asks for a poll now rather than at the next interval; calls close together make one poll. */
  wake(): void {
    if (!this.started) return;
    if (this.polling) this.wokenWhilePolling = true;
    else this.schedule(0);
  }

  /** Sends every mail that is due now and returns how many went out. */
  drain(): Promise<number> {
    const drain = this.lastDrain.then(() => this.sendDue());
    this.lastDrain = drain.catch(() => undefined);
    return drain;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delayMs);
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    this.polling = true;
    this.wokenWhilePolling = false;
    try {
      await this.drain();
    } catch (error) {
      this.logger.error({ err: error }, 'reading the mail outbox failed');
    } finally {
      this.polling = false;
    }
    if (this.started) this.schedule(this.wokenWhilePolling ? 0 : this.pollIntervalMs);
  }

  private async sendDue(): Promise<number> {
    let sent = 0;
    while (!this.stopping) {
      const [mail] = await claimDueMails(this.db, 1, CLAIM_LEASE_MS);
      if (!mail) break;
      if (await this.deliver(mail)) sent += 1;
    }
    return sent;
  }

  private async deliver(mail: OutboxMailRow): Promise<boolean> {
    try {
      const message = await this.compose(mail);
      if (!message) {
        await markCancelled(this.db, mail.id, 'its link was replaced by a newer one, used, or its account removed');
        this.logger.info({ mailId: mail.id }, 'mail cancelled: its link is no longer wanted');
        return false;
      }
      await this.transport.send(message);
    } catch (error) {
      await this.recordFailure(mail, error);
      return false;
    }
    await markSent(this.db, mail.id);
    this.logger.info({ mailId: mail.id }, 'mail sent');
    return true;
  }

  /**
   * The mail as it goes out. A mail carrying a secret gets a new one at each attempt, committed
   * before it is sent (the link works once it arrives): one that failed half way leaves only a
   * secret nobody received, replaced by the next attempt's.
   */
  private async compose(mail: OutboxMailRow): Promise<OutgoingMail | null> {
    const stored = { to: mail.recipient, subject: mail.subject, text: mail.text, html: mail.html };
    if (mail.secretIssuer === null || mail.secretFor === null) return stored;
    const issue = this.secretIssuers.get(mail.secretIssuer);
    if (!issue) throw new Error(`no issuer of the mail's secret: ${mail.secretIssuer}`);
    const secret = await issue(this.db, mail.secretFor);
    return secret === null ? null : fillSecret(stored, secret);
  }

  private async recordFailure(mail: OutboxMailRow, error: unknown): Promise<void> {
    const attempts = mail.attempts + 1;
    const reason = error instanceof Error ? error.message : String(error);
    if (attempts >= this.maxAttempts) {
      await markAttemptFailed(this.db, mail.id, reason, null);
      this.logger.error(
        { err: error, mailId: mail.id, recipient: mail.recipient, attempts },
        'mail not sent, giving up',
      );
      return;
    }
    const nextAttemptAt = new Date(Date.now() + retryDelayMs(attempts));
    await markAttemptFailed(this.db, mail.id, reason, nextAttemptAt);
    this.logger.warn({ err: error, mailId: mail.id, attempts, nextAttemptAt }, 'mail not sent, will retry');
  }
}

function retryDelayMs(failedAttempts: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** (failedAttempts - 1), MAX_RETRY_DELAY_MS);
}
