import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { RepeatingJob } from '../../time/repeating-job';
import { deleteDeadLinkTokens, deleteEndedSessions } from './auth.repository';
import { deleteDeadSecondFactorRecords } from './second-factor.repository';
import { LONGEST_THROTTLE_WINDOW_MS, type Throttle } from './throttle';

const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * Deletes, every ten minutes, what no longer lets anyone in: mailed links used, replaced or
 * expired, sessions ended with their refresh tokens, second steps of sign-ins and remembered
 * browsers past their time, and sign-in attempts older than any
 * throttle looks back. A database (and a backup of it) keeps only what is still live.
 */
export class SignInPurge {
  private readonly job = new RepeatingJob(() => this.purge(), {
    everyMs: PURGE_EVERY_MS,
    onError: (error) => this.deps.logger.warn({ err: error }, 'purging ended sign-in records failed'),
  });

  constructor(private readonly deps: { db: Database; throttle: Throttle; logger: FastifyBaseLogger }) {}

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Purges now; resolves when done. */
  runNow(): Promise<void> {
    return this.job.runNow();
  }

  private async purge(): Promise<void> {
    const { db, throttle } = this.deps;
    await deleteDeadLinkTokens(db);
    await deleteEndedSessions(db);
    await deleteDeadSecondFactorRecords(db);
    await throttle.prune(LONGEST_THROTTLE_WINDOW_MS);
  }
}
