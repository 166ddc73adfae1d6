import { randomUUID } from 'node:crypto';
import {
  MAX_WEBHOOKS_PER_OWNER,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type Webhook,
  type WebhookTestResult,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { OutboundGuard } from '../../http/outbound';
import type { SignedInUser } from '../../http/request-context';
import { type AlertsService, type RaisedAlert, alertOfLogEntry } from '../alerts';
import type { LogsService } from '../logs';
import type { UsersService } from '../users';
import { alertPayload, testPayload } from './webhook-payload';
import { newWebhookSecret, signatureHeader } from './webhook-signature';
import { presentWebhook } from './webhooks.presenter';
import {
  type WebhookOwnership,
  countWebhooks,
  deleteWebhook,
  findActiveWebhooks,
  findWebhook,
  insertDeliveries,
  insertWebhook,
  listWebhooks,
  recordTest,
  setPaused,
} from './webhooks.repository';

/** The headers every delivery carries besides the JSON content type. */
export function deliveryHeaders(secret: string, body: string, deliveryId: string, now: number) {
  return {
    [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, body, now),
    [WEBHOOK_DELIVERY_HEADER]: deliveryId,
    'user-agent': 'Pivot-Webhooks/1',
  };
}

/**
 * Alert webhooks: a user's own (the alerts that user receives) and the administrators' for
 * everyone (every alert). Addresses pass the outbound rules when saved and on every send.
 */
export class WebhooksService {
  constructor(
    private readonly deps: {
      db: Database;
      outbound: OutboundGuard;
      alerts: Pick<AlertsService, 'recipientsOn'>;
      logs: Pick<LogsService, 'entriesByIds'>;
      users: Pick<UsersService, 'findMany' | 'activeAdminIds'>;
      publicUrl: string;
    },
  ) {}

  async list(ownership: WebhookOwnership): Promise<Webhook[]> {
    return (await listWebhooks(this.deps.db, ownership)).map(presentWebhook);
  }

  async add(owner: SignedInUser, ownership: WebhookOwnership, address: string): Promise<Webhook> {
    if ((await countWebhooks(this.deps.db, ownership)) >= MAX_WEBHOOKS_PER_OWNER) {
      throw new AppError('too_many_webhooks');
    }
    const url = await this.deps.outbound.check(address);
    const row = await insertWebhook(this.deps.db, {
      ownerUserId: owner.id,
      scope: ownership.scope,
      url: url.href,
      secret: newWebhookSecret(),
    });
    return presentWebhook(row);
  }

  async remove(ownership: WebhookOwnership, id: number): Promise<void> {
    if (!(await deleteWebhook(this.deps.db, ownership, id))) throw new AppError('webhook_not_found');
  }

  async setPaused(ownership: WebhookOwnership, id: number, paused: boolean): Promise<Webhook> {
    const row = await setPaused(this.deps.db, ownership, id, paused);
    if (!row) throw new AppError('webhook_not_found');
    return presentWebhook(row);
  }

  /** Sends a test payload now, paused or not, and answers how it went. */
  async sendTest(caller: SignedInUser, ownership: WebhookOwnership, id: number): Promise<WebhookTestResult> {
    const webhook = await findWebhook(this.deps.db, ownership, id);
    if (!webhook) throw new AppError('webhook_not_found');
    const now = Date.now();
    const deliveryId = `test-${randomUUID()}`;
    const body = JSON.stringify(testPayload(deliveryId, caller.language, now));
    const outcome = await this.deps.outbound.post(
      webhook.url,
      body,
      deliveryHeaders(webhook.secret, body, deliveryId, now),
    );
    const error = outcome.ok ? null : outcome.error;
    await recordTest(this.deps.db, webhook.id, new Date(), error);
    return { delivered: outcome.ok, status: outcome.status, error };
  }

  /**
   * Queues each alert for every webhook that should hear of it, in the transaction that records
   * the incidents: the 'all' webhooks of active administrators, and the own webhooks of the users
   * who receive the alert (their kinds and muted machines). A few statements however many alerts.
   */
  async queueAll(tx: Queryable, alerts: RaisedAlert[]): Promise<void> {
    const recipients = await this.deps.alerts.recipientsOn(tx, [...new Set(alerts.map((alert) => alert.sprinklerId))]);
    const receiversOf = new Map(
      alerts.map((alert) => [alert, new Set(recipients(alert.sprinklerId, alert.kind, null))] as const),
    );
    const admins = new Set(await this.deps.users.activeAdminIds(tx));
    const active = await findActiveWebhooks(tx, [...new Set([...receiversOf.values()].flatMap((users) => [...users]))]);
    const targetsOf = (alert: RaisedAlert) =>
      active.filter((webhook) =>
        webhook.scope === 'own' ? receiversOf.get(alert)!.has(webhook.ownerUserId) : admins.has(webhook.ownerUserId),
      );
    const heard = alerts.filter((alert) => targetsOf(alert).length > 0);
    if (heard.length === 0) return;
    const entries = new Map(
      (
        await this.deps.logs.entriesByIds(
          tx,
          heard.map((alert) => alert.logEntryId),
        )
      ).map((entry) => [entry.id, entry]),
    );
    const owners = await this.deps.users.findMany(tx, [...new Set(active.map((webhook) => webhook.ownerUserId))]);
    const languageOf = new Map(owners.map((owner) => [owner.id, owner.language]));
    const deliveries = heard.flatMap((alert) => {
      const entry = entries.get(alert.logEntryId);
      const recorded = entry && alertOfLogEntry(entry);
      if (!entry || !recorded) return [];
      const incident = { ...recorded, sprinklerInternalId: entry.sprinklerInternalId ?? '' };
      return targetsOf(alert).map((webhook) => ({
        webhookId: webhook.id,
        logEntryId: alert.logEntryId,
        body: JSON.stringify(alertPayload(incident, languageOf.get(webhook.ownerUserId) ?? 'pl', this.deps.publicUrl)),
      }));
    });
    await insertDeliveries(tx, deliveries);
  }
}
