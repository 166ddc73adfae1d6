import type { WebhookScope } from '@pivot/contracts';
import { and, asc, count, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { chunked } from '../../db/chunked';
import type { Queryable } from '../../db/client';
import { type WebhookDeliveryRow, type WebhookRow, webhookDeliveries, webhooks } from './webhooks.table';

/** Whose webhooks a call may see: a user's own, or the administrators' 'all' ones. */
export type WebhookOwnership = { scope: 'own'; ownerUserId: number } | { scope: 'all' };

function owned(ownership: WebhookOwnership) {
  return ownership.scope === 'own'
    ? and(eq(webhooks.scope, 'own'), eq(webhooks.ownerUserId, ownership.ownerUserId))
    : eq(webhooks.scope, 'all');
}

export async function listWebhooks(db: Queryable, ownership: WebhookOwnership): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(owned(ownership)).orderBy(asc(webhooks.id));
}

export async function countWebhooks(db: Queryable, ownership: WebhookOwnership): Promise<number> {
  const [row] = await db.select({ total: count() }).from(webhooks).where(owned(ownership));
  return row?.total ?? 0;
}

export async function findWebhook(db: Queryable, ownership: WebhookOwnership, id: number) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), owned(ownership)));
  return row;
}

export async function insertWebhook(
  db: Queryable,
  values: { ownerUserId: number; scope: WebhookScope; url: string; secret: string },
): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  return row!;
}

export async function deleteWebhook(db: Queryable, ownership: WebhookOwnership, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), owned(ownership)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

/** Pauses (dropping what waited for it) or resumes (with a clean record of failures). */
export async function setPaused(
  db: Queryable,
  ownership: WebhookOwnership,
  id: number,
  paused: boolean,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set(
      paused
        ? { pausedAt: sql`coalesce(${webhooks.pausedAt}, now())` }
        : { pausedAt: null, pausedByServer: false, consecutiveFailures: 0, failingSince: null },
    )
    .where(and(eq(webhooks.id, id), owned(ownership)))
    .returning();
  if (row && paused) await dropWaiting(db, id);
  return row;
}

async function dropWaiting(db: Queryable, webhookId: number): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ gaveUpAt: sql`now()`, claimedUntil: null, lastError: 'webhook paused' })
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        isNull(webhookDeliveries.deliveredAt),
        isNull(webhookDeliveries.gaveUpAt),
      ),
    );
}

/** The webhooks not paused that may receive an alert: the 'all' ones, and the 'own' ones of these users. */
export async function findActiveWebhooks(db: Queryable, ownUserIds: number[]): Promise<WebhookRow[]> {
  const ownOfUsers =
    ownUserIds.length > 0 ? and(eq(webhooks.scope, 'own'), inArray(webhooks.ownerUserId, ownUserIds)) : sql`false`;
  return db
    .select()
    .from(webhooks)
    .where(and(isNull(webhooks.pausedAt), or(eq(webhooks.scope, 'all'), ownOfUsers)));
}

export async function insertDeliveries(
  db: Queryable,
  rows: { webhookId: number; logEntryId: number; body: string }[],
): Promise<void> {
  // Three parameters a row: well below the statement's limit.
  for (const chunk of chunked(rows, 5_000)) await db.insert(webhookDeliveries).values(chunk).onConflictDoNothing();
}

export type ClaimedDelivery = WebhookDeliveryRow & { url: string; secret: string };

/**
 * Takes up to `limit` due deliveries of webhooks not paused, for `leaseMs`: another sender leaves
 * them alone until then, and takes them up after if this one died while sending.
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(
      and(
        isNull(webhookDeliveries.deliveredAt),
        isNull(webhookDeliveries.gaveUpAt),
        isNull(webhooks.pausedAt),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.claimedUntil), lte(webhookDeliveries.claimedUntil, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.id))
    .limit(limit)
    .for('update', { of: webhookDeliveries, skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ claimedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${webhookDeliveries.attempts} + 1` })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  if (claimed.length === 0) return [];
  const targets = await db
    .select({ id: webhooks.id, url: webhooks.url, secret: webhooks.secret })
    .from(webhooks)
    .where(
      inArray(
        webhooks.id,
        claimed.map((delivery) => delivery.webhookId),
      ),
    );
  const byId = new Map(targets.map((target) => [target.id, target]));
  return claimed.flatMap((delivery) => {
    const target = byId.get(delivery.webhookId);
    return target ? [{ ...delivery, url: target.url, secret: target.secret }] : [];
  });
}

export async function markDelivered(db: Queryable, id: number, at: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ deliveredAt: at, claimedUntil: null, lastError: null })
    .where(eq(webhookDeliveries.id, id));
}

/** A failed attempt: tried again at `retryAt`, or given up when that is null. */
export async function markFailed(
  db: Queryable,
  id: number,
  error: string,
  at: Date,
  retryAt: Date | null,
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set(
      retryAt
        ? { nextAttemptAt: retryAt, claimedUntil: null, lastError: error }
        : { gaveUpAt: at, claimedUntil: null, lastError: error },
    )
    .where(eq(webhookDeliveries.id, id));
}

export async function recordSuccess(db: Queryable, webhookId: number, at: Date): Promise<void> {
  await db
    .update(webhooks)
    .set({ lastDeliveryAt: at, lastError: null, consecutiveFailures: 0, failingSince: null })
    .where(eq(webhooks.id, webhookId));
}

/** Counts a failure; answers the webhook after it. */
export async function recordFailure(
  db: Queryable,
  webhookId: number,
  error: string,
  at: Date,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({
      lastDeliveryAt: at,
      lastError: error,
      consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
      failingSince: sql`coalesce(${webhooks.failingSince}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(webhooks.id, webhookId))
    .returning();
  return row;
}

/** The outcome of a test delivery: shown as the last delivery, counted for nothing else. */
export async function recordTest(db: Queryable, webhookId: number, at: Date, error: string | null): Promise<void> {
  await db.update(webhooks).set({ lastDeliveryAt: at, lastError: error }).where(eq(webhooks.id, webhookId));
}

/** Pauses a webhook the server gave up on, unless it is paused already; true when this call paused it. */
export async function pauseFailing(db: Queryable, webhookId: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(webhooks)
    .set({ pausedAt: at, pausedByServer: true })
    .where(and(eq(webhooks.id, webhookId), isNull(webhooks.pausedAt)))
    .returning({ id: webhooks.id });
  if (rows.length > 0) await dropWaiting(db, webhookId);
  return rows.length > 0;
}
