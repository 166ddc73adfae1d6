import type https from 'node:https';
import type { Language, PushPayload, PushSubscriptionBody } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import webpush, { WebPushError } from 'web-push';
import { RepeatingJob } from '../../time/repeating-job';
import type { Database } from '../../db/client';
import type { SignedInUser } from '../../http/request-context';
import type { LogsService } from '../logs';
import type { UsersService } from '../users';
import { alertWords } from './alert-wording';
import {
  claimPushes,
  deleteGoneSubscription,
  deleteSubscription,
  findSubscriptions,
  keepPushKeys,
  markDelivered,
  releasePush,
  saveSubscription,
} from './alerts.repository';
import { alertOfLogEntry } from './alerts.service';

const LOOK_EVERY_MS = 1000;
const PUSHES_PER_LOOK = 50;
/** Longer than a push service takes to answer (TIMEOUT_MS) for every subscription of a user. */
const LEASE_MS = 60_000;
const TIMEOUT_MS = 10_000;
const MAX_ATTEMPTS = 5;
/** A push not delivered within an hour is old news: the push service drops it. */
const TTL_SECONDS = 60 * 60;

/**
 * Web Push: the browsers that asked for it, the server's VAPID keys (made at the first start and
 * kept in the database, so every instance signs with the key the browsers subscribed with), and
 * the sender of the queued pushes. A subscription the push service says is gone is deleted.
 */
export class PushSender {
  private keys: { publicKey: string; privateKey: string } | undefined;
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
    this.keys = await keepPushKeys(this.deps.db, webpush.generateVAPIDKeys());
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  publicKey(): string {
    if (!this.keys) throw new Error('the push keys are read at start');
    return this.keys.publicKey;
  }

  subscribe(user: SignedInUser, subscription: PushSubscriptionBody): Promise<void> {
    return saveSubscription(this.deps.db, user.id, subscription);
  }

  unsubscribe(user: SignedInUser, endpoint: string): Promise<void> {
    return deleteSubscription(this.deps.db, user.id, endpoint);
  }

  /** Sends the queued pushes; resolves when this round is done. */
  sendDue(): Promise<void> {
    return this.job.runNow();
  }

  private async sendRound(): Promise<void> {
    const { db, logs, users } = this.deps;
    const claimed = await claimPushes(db, PUSHES_PER_LOOK, LEASE_MS);
    for (const delivery of claimed) {
      const [entry] = await logs.entriesByIds(db, [delivery.logEntryId]);
      const alert = entry && alertOfLogEntry(entry);
      const user = await users.find(db, delivery.userId);
      const delivered = !alert || !user || (await this.pushToUser(delivery.userId, payloadFor(user.language, alert)));
      if (delivered || delivery.attempts >= MAX_ATTEMPTS) await markDelivered(db, [delivery.id]);
      else await releasePush(db, delivery.id);
    }
  }

  /** True when every browser of the user took the push, or is gone for good. */
  private async pushToUser(userId: number, payload: PushPayload): Promise<boolean> {
    let delivered = true;
    for (const subscription of await findSubscriptions(this.deps.db, userId)) {
      try {
        await webpush.sendNotification(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: { subject: this.deps.subject, ...this.keys! },
            TTL: TTL_SECONDS,
            urgency: 'high',
            timeout: TIMEOUT_MS,
            ...(this.deps.agent ? { agent: this.deps.agent } : {}),
          },
        );
      } catch (error) {
        if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) {
          await deleteGoneSubscription(this.deps.db, subscription.endpoint);
          continue;
        }
        this.deps.logger.warn({ err: error, userId }, 'a push service refused or did not answer');
        delivered = false;
      }
    }
    return delivered;
  }
}

function payloadFor(language: Language, alert: NonNullable<ReturnType<typeof alertOfLogEntry>>): PushPayload {
  const { title, sentence } = alertWords(language, alert);
  const localePrefix = language === 'en' ? '/en' : '';
  return {
    title: `${title}: ${alert.sprinklerName}`,
    body: sentence,
    url: `${localePrefix}/sprinklers/${alert.sprinklerId}`,
    tag: `${alert.sprinklerId}-${alert.kind}`,
  };
}
