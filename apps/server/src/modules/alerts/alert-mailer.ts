import type { FastifyBaseLogger } from 'fastify';
import { RepeatingJob } from '../../time/repeating-job';
import type { Database } from '../../db/client';
import type { LogsService } from '../logs';
import type { MailService } from '../mail';
import type { UsersService } from '../users';
import { alertMail } from './alert-mail';
import { claimUserMail, findUsersWithMailDue, markDelivered } from './alerts.repository';
import { alertOfLogEntry } from './alerts.service';

/**
 * How long a user's first waiting alert waits for others: the incidents of one moment (a pump
 * failing stops several machines) come as one mail, and each mail leaves within 30 s of its first alert.
 */
export const MAIL_GATHERS_MS = 20_000;
const LOOK_EVERY_MS = 5000;

/**
 * Turns each user's waiting e-mail alerts into one mail in the durable outbox, in the user's
 * language. The rows are locked while the mail is written, so two instances never mail them twice.
 */
export class AlertMailer {
  private readonly job = new RepeatingJob<number>((now = Date.now()) => this.mailUsers(now), {
    everyMs: LOOK_EVERY_MS,
    onError: (error) => this.deps.logger.error({ err: error }, 'mailing alerts failed'),
  });

  constructor(
    private readonly deps: {
      db: Database;
      logs: LogsService;
      users: UsersService;
      mail: MailService;
      publicUrl: string;
      productName: string;
      timeZone: string;
      logger: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Mails every user whose first waiting alert has waited `MAIL_GATHERS_MS`; resolves when queued. */
  mailDue(now = Date.now()): Promise<void> {
    return this.job.runNow(now);
  }

  private async mailUsers(now: number): Promise<void> {
    const { db, mail } = this.deps;
    let queued = 0;
    for (const userId of await findUsersWithMailDue(db, new Date(now - MAIL_GATHERS_MS))) {
      if (await this.mailUser(userId)) queued += 1;
    }
    if (queued > 0) mail.wake();
  }

  private mailUser(userId: number): Promise<boolean> {
    const { db, logs, users } = this.deps;
    return db.transaction(async (tx) => {
      const rows = await claimUserMail(tx, userId);
      const user = await users.find(tx, userId);
      if (rows.length === 0 || !user) return false;
      const entries = await logs.entriesByIds(
        tx,
        rows.map((row) => row.logEntryId),
      );
      const alerts = entries.map(alertOfLogEntry).filter((alert) => alert !== undefined);
      if (alerts.length > 0) {
        const localePrefix = user.language === 'en' ? '/en' : '';
        await this.deps.mail.queue(
          tx,
          alertMail({
            to: user.email,
            language: user.language,
            productName: this.deps.productName,
            timeZone: this.deps.timeZone,
            machineLink: (id) => `${this.deps.publicUrl}${localePrefix}/sprinklers/${id}`,
            alerts,
          }),
        );
      }
      await markDelivered(
        tx,
        rows.map((row) => row.id),
      );
      return alerts.length > 0;
    });
  }
}
