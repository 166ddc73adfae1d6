import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { OutboundGuard } from '../../http/outbound';
import { RepeatingJob } from '../../time/repeating-job';
import type { LogsService } from '../logs';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  markDelivered,
  markFailed,
  pauseFailing,
  recordFailure,
  recordSuccess,
} from './webhooks.repository';
import { deliveryHeaders } from './webhooks.service';

const LOOK_EVERY_MS = 1000;
/** Requests under way at once on one instance; each ends within the outbound time limit. */
const MAX_IN_FLIGHT = 100;
/** Far longer than a request may take (http/outbound.ts: 5 s), so a live sender never loses its rows. */
const LEASE_MS = 60_000;
const FIRST_RETRY_DELAY_MS = 30_000;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A webhook that failed this many times in a row, or without a success for a day, is paused. */
export const PAUSE_AFTER_FAILURES = 20;

/** Waits after the n-th failed attempt: 30 s doubling to an hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** (failedAttempts - 1), MAX_RETRY_DELAY_MS);
}

/**
 * Sends the queued webhook deliveries. Each look claims what is due (leased, so two senders never
 * send one row) and starts every request at once without waiting for them: one slow receiver
 * only ever holds its own request, never another's alert or the next look. A failure is retried
 * with growing delays for a day from the alert, then given up; a webhook that keeps failing is
 * paused and its owner told in the activity log.
 */
export class WebhookSender {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly job = new RepeatingJob<number>((now = Date.now()) => this.dispatch(now), {
    everyMs: LOOK_EVERY_MS,
    onError: (error) => this.deps.logger.error({ err: error }, 'sending webhooks failed'),
  });

  constructor(
    private readonly deps: {
      db: Database;
      outbound: OutboundGuard;
      logs: Pick<LogsService, 'record'>;
      logger: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.job.start();
  }

  async stop(): Promise<void> {
    await this.job.stop();
    await Promise.allSettled(this.inFlight);
  }

  /** Sends what is due soon, not at its next second: new deliveries are queued. */
  wake(): void {
    this.job.soon();
  }

  /** Sends what is due at `now` and waits for every request under way (tests move `now` on). */
  async sendDue(now = Date.now()): Promise<void> {
    await this.job.runNow(now);
    await Promise.allSettled(this.inFlight);
  }

  private async dispatch(now: number): Promise<void> {
    const claimed = await claimDueDeliveries(this.deps.db, new Date(now), MAX_IN_FLIGHT - this.inFlight.size, LEASE_MS);
    for (const delivery of claimed) {
      const sending: Promise<void> = this.deliver(delivery, now)
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error, deliveryId: delivery.id }, 'a webhook delivery failed'),
        )
        .finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }
  }

  private async deliver(delivery: ClaimedDelivery, now: number): Promise<void> {
    const { db, outbound } = this.deps;
    const outcome = await outbound.post(
      delivery.url,
      delivery.body,
      deliveryHeaders(delivery.secret, delivery.body, String(delivery.id), Date.now()),
    );
    const at = new Date(now);
    if (outcome.ok) {
      await markDelivered(db, delivery.id, at);
      await recordSuccess(db, delivery.webhookId, at);
      return;
    }
    const retryAt = now + retryDelayMs(delivery.attempts);
    const inTime = retryAt - delivery.createdAt.getTime() < DAY_MS;
    await markFailed(db, delivery.id, outcome.error, at, inTime ? new Date(retryAt) : null);
    this.deps.logger.warn({ deliveryId: delivery.id, error: outcome.error }, 'a webhook delivery failed');
    const webhook = await recordFailure(db, delivery.webhookId, outcome.error, at);
    if (!webhook || webhook.pausedAt) return;
    const failingFor = now - (webhook.failingSince?.getTime() ?? now);
    if (webhook.consecutiveFailures < PAUSE_AFTER_FAILURES && failingFor < DAY_MS) return;
    await db.transaction(async (tx) => {
      if (!(await pauseFailing(tx, webhook.id, at))) return;
      await this.deps.logs.record(tx, {
        eventType: 'webhook_paused',
        actorUserId: null,
        subjectUserId: webhook.ownerUserId,
        event: new URL(webhook.url).host,
        details: outcome.error,
        ip: '',
      });
    });
  }
}
