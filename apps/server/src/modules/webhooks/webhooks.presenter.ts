import type { Webhook } from '@pivot/contracts';
import type { WebhookRow } from './webhooks.table';

export function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    scope: row.scope,
    secret: row.secret,
    createdAt: row.createdAt.getTime(),
    paused: row.pausedAt !== null,
    pausedAt: row.pausedAt?.getTime() ?? null,
    pausedByServer: row.pausedByServer,
    lastDeliveryAt: row.lastDeliveryAt?.getTime() ?? null,
    lastError: row.lastError,
    consecutiveFailures: row.consecutiveFailures,
  };
}
