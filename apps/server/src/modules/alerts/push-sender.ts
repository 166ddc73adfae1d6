import type https from 'node:https';
import { AUTOPILOT_CARD_ANCHOR, type Language, type PushPayload, type PushSubscriptionBody } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { RepeatingJob } from '../../time/repeating-job';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { SignedInUser } from '../../http/request-context';
import type { LogsService } from '../logs';
import type { UsersService } from '../users';
import { alertWords } from './alert-wording';
import {
  claimPushes,
  deleteGoneSubscription,
  deleteSubscription,
  findPushKeys,
  findSubscriptionsOfUsers,
  keepPushKeys,
  markDelivered,
  recordPushesFailed,
  recordPushesTaken,
  releasePush,
  saveSubscription,
} from './alerts.repository';
import { alertOfLogEntry } from './alerts.service';
import type { AlertDeliveryRow } from './alerts.table';
import { checkedPushKeys } from './push-keys';
import { PushSlots } from './push-slots';

const LOOK_EVERY_MS = 1000;
const PUSHES_PER_LOOK = 50;
/** How long one push service may take to answer: a slower one counts as failed, and delays no other. */
export const PUSH_TIMEOUT_MS = 5000;
/** Pushes in flight at once on one instance, over all rounds (three users' worth of browsers that hang). */
export const CONCURRENT_PUSHES = 32;
/**
 * Longer than a round's pushes take: 50 alerts to 10 browsers each, all hanging, in waves of
 * CONCURRENT_PUSHES of at most PUSH_TIMEOUT_MS each, take 80 s at the very worst.
 */
const LEASE_MS = 180_000;
/** Tries of one alert: one that a browser's push service did not take after these is given up. */
const MAX_ATTEMPTS = 3;
/** Browsers (push subscriptions) one user may have; a new one beyond these replaces a failing, else the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;
/** A subscription whose push service failed this many rounds in a row, over at least this long, is deleted. */
export const GIVE_UP_SUBSCRIPTION = { failures: 5, seconds: 24 * 60 * 60 };
/** A push not delivered within an hour is old news: the push service drops it. */
const TTL_SECONDS = 60 * 60;

/**
 * The Web Push library loads with the first push, or at the very first start to make the keys:
 * not with every start of the server (docs/benchmarks.md, the start's libraries).
 */
const webPush = async () => (await import('web-push')).default;

type Subscription = Awaited<ReturnType<typeof findSubscriptionsOfUsers>>[number];
type PushOutcome = 'taken' | 'gone' | 'failed';
/** One push of a round: an alert to one browser of its user. */
type Push = { deliveryId: number; subscription: Subscription; payload: PushPayload; outcome?: PushOutcome };

/**
 * Web Push: the browsers that asked for it, the server's VAPID keys (made at the first start and
 * kept in the database, so every instance signs with the key the browsers subscribed with), and
 * the sender of the queued pushes. A round sends all its pushes at once, a few at a time, each
 * with a short timeout, so that no push service, however slow, delays another's pushes; one that
 * says a subscription is gone has it deleted, and one that keeps failing has it given up.
 */
export class PushSender {
  private keys: { publicKey: string; privateKey: string } | undefined;
  private readonly slots = new PushSlots(CONCURRENT_PUSHES);
  /** The rounds whose pushes are still out: a round does not wait for them, so the next starts on time. */
  private readonly outstanding = new Set<Promise<void>>();
  private readonly job = new RepeatingJob(() => this.sendRound(), {
    everyMs: LOOK_EVERY_MS,
    onError: (error) => this.deps.logger.error({ err: error }, 'sending pushes failed'),
  });

  constructor(
    private readonly deps: {
      db: Database;
      logs: LogsService;
      users: UsersService;
      /** Who the push services may contact about this server: a mailto: or https: address. */
      subject: string;
      logger: FastifyBaseLogger;
      /** For tests: the agent that trusts a local push service's certificate. */
      agent?: https.Agent;
    },
  ) {}

  async start(): Promise<void> {
    const { db } = this.deps;
    this.keys = (await findPushKeys(db)) ?? (await keepPushKeys(db, (await webPush()).generateVAPIDKeys()));
    this.job.start();
  }

  async stop(): Promise<void> {
    await this.job.stop();
    await Promise.all(this.outstanding);
  }

  publicKey(): string {
    if (!this.keys) throw new Error('the push keys are read at start');
    return this.keys.publicKey;
  }

  /**
   * Keeps a browser's subscription for the user (docs/alerts.md): its keys must be a real P-256
   * key and secret, an endpoint another account holds moves only with the keys it was stored with,
   * and beyond MAX_SUBSCRIPTIONS_PER_USER the user's failing or oldest browser is dropped.
   */
  async subscribe(user: SignedInUser, subscription: PushSubscriptionBody): Promise<void> {
    const keys = checkedPushKeys(subscription.keys);
    const saved = await saveSubscription(
      this.deps.db,
      user.id,
      { endpoint: subscription.endpoint, keys },
      MAX_SUBSCRIPTIONS_PER_USER,
    );
    if (!saved) throw new AppError('push_endpoint_taken');
  }

  unsubscribe(user: SignedInUser, endpoint: string): Promise<void> {
    return deleteSubscription(this.deps.db, user.id, endpoint);
  }

  /** Sends the queued pushes soon, not at its next second: new ones are queued. */
  wake(): void {
    this.job.soon();
  }

  /** Sends the queued pushes; resolves when they and every push still out are done. */
  async sendDue(): Promise<void> {
    await this.job.runNow();
    await Promise.all(this.outstanding);
  }

  /**
   * Claims the queued pushes and sends them without waiting for the push services: the next round
   * starts a second later whatever they do, so an alert queued meanwhile is not held up by them.
   */
  private async sendRound(): Promise<void> {
    const claimed = await claimPushes(this.deps.db, PUSHES_PER_LOOK, LEASE_MS);
    if (claimed.length === 0) return;
    const sending = this.send(claimed)
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'sending pushes failed'))
      .finally(() => this.outstanding.delete(sending));
    this.outstanding.add(sending);
  }

  private async send(claimed: AlertDeliveryRow[]): Promise<void> {
    const { db, logs, users } = this.deps;
    const entries = new Map(
      (await logs.entriesByIds(db, [...new Set(claimed.map((delivery) => delivery.logEntryId))])).map((entry) => [
        entry.id,
        entry,
      ]),
    );
    const userIds = [...new Set(claimed.map((delivery) => delivery.userId))];
    const recipients = new Map((await users.findMany(db, userIds)).map((user) => [user.id, user]));
    const subscriptions = await findSubscriptionsOfUsers(db, userIds);
    const pushes: Push[] = [];
    for (const delivery of claimed) {
      const entry = entries.get(delivery.logEntryId);
      const alert = entry && alertOfLogEntry(entry);
      const user = recipients.get(delivery.userId);
      if (!alert || !user) continue;
      const payload = payloadFor(user.language, alert);
      for (const subscription of subscriptions) {
        if (subscription.userId === user.id) pushes.push({ deliveryId: delivery.id, subscription, payload });
      }
    }
    await Promise.all(
      fairOrder(pushes).map(async (push) => {
        push.outcome = await this.slots.run(push.subscription.failures > 0, () =>
          this.pushTo(push.subscription, push.payload),
        );
      }),
    );
    await this.recordOutcomes(pushes);
    const failedDeliveries = new Set(pushes.filter((push) => push.outcome === 'failed').map((push) => push.deliveryId));
    const done = claimed.filter((delivery) => !failedDeliveries.has(delivery.id) || delivery.attempts >= MAX_ATTEMPTS);
    await markDelivered(
      db,
      done.map((delivery) => delivery.id),
    );
    for (const id of failedDeliveries) if (!done.some((delivery) => delivery.id === id)) await releasePush(db, id);
  }

  /** Each subscription's round, once however many of its alerts it had: taken, gone, or failed. */
  private async recordOutcomes(pushes: Push[]): Promise<void> {
    const { db, logger } = this.deps;
    const outcomes = new Map<number, { endpoint: string; outcome: PushOutcome }>();
    for (const { subscription, outcome = 'failed' } of pushes) {
      const before = outcomes.get(subscription.id)?.outcome;
      // A service that took one push of the round works; one that called it gone is gone.
      if (before === 'gone' || before === 'taken') continue;
      outcomes.set(subscription.id, { endpoint: subscription.endpoint, outcome });
    }
    const of = (wanted: PushOutcome) => [...outcomes].filter(([, { outcome }]) => outcome === wanted);
    for (const [, { endpoint }] of of('gone')) await deleteGoneSubscription(db, endpoint);
    await recordPushesTaken(
      db,
      of('taken').map(([id]) => id),
    );
    const givenUp = await recordPushesFailed(
      db,
      of('failed').map(([id]) => id),
      GIVE_UP_SUBSCRIPTION,
    );
    if (givenUp > 0) logger.warn({ givenUp }, 'push subscriptions that kept failing were deleted');
  }

  /** One push to one browser, given at most PUSH_TIMEOUT_MS. */
  private async pushTo(subscription: Subscription, payload: PushPayload): Promise<PushOutcome> {
    const { agent } = this.deps;
    const { sendNotification, WebPushError } = await webPush();
    const sent = sendNotification(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: this.deps.subject, ...this.keys! },
        TTL: TTL_SECONDS,
        urgency: 'high',
        timeout: PUSH_TIMEOUT_MS,
        ...(agent ? { agent } : {}),
      },
    );
    try {
      // The socket's own timeout counts only silence: a service that trickles is cut off here.
      await withDeadline(sent, PUSH_TIMEOUT_MS);
      return 'taken';
    } catch (error) {
      if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) return 'gone';
      this.deps.logger.warn(
        { err: error, userId: subscription.userId, subscriptionId: subscription.id },
        'a push service refused or did not answer',
      );
      return 'failed';
    }
  }
}

/**
 * The pushes in the order they start: first each user's first browser, then each user's second,
 * and so on, browsers that worked before those failing; so one user's many browsers, or dead ones,
 * never queue ahead of another user's.
 */
function fairOrder(pushes: Push[]): Push[] {
  const rankInUser = new Map<Push, number>();
  const seen = new Map<number, number>();
  for (const push of pushes) {
    const rank = seen.get(push.subscription.userId) ?? 0;
    rankInUser.set(push, rank);
    seen.set(push.subscription.userId, rank + 1);
  }
  const failing = (push: Push) => (push.subscription.failures > 0 ? 1 : 0);
  return [...pushes].sort((a, b) => failing(a) - failing(b) || rankInUser.get(a)! - rankInUser.get(b)!);
}

/** The promise, or a rejection once `ms` have passed. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function payloadFor(language: Language, alert: NonNullable<ReturnType<typeof alertOfLogEntry>>): PushPayload {
  const { title, sentence } = alertWords(language, alert);
  const localePrefix = language === 'en' ? '/en' : '';
  // "Irrigation due" opens the machine's Autopilot card, whose one tap starts the pass.
  const anchor = alert.kind === 'irrigation_due' && alert.phase === 'began' ? `#${AUTOPILOT_CARD_ANCHOR}` : '';
  return {
    title: `${title}: ${alert.sprinklerName}`,
    body: sentence,
    url: `${localePrefix}/sprinklers/${alert.sprinklerId}${anchor}`,
    tag: `${alert.sprinklerId}-${alert.kind}`,
  };
}
