import type { AlertDefaults, AlertSettings } from '@pivot/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import { chunked } from '../../db/chunked';
import type { Database, Queryable } from '../../db/client';
import {
  type AlertDeliveryRow,
  alertDefaults,
  alertDeliveries,
  alertSettings,
  pushKeys,
  pushSubscriptions,
} from './alerts.table';

const DEFAULTS_ROW = 1;

export async function findOwnSettings(db: Queryable, userIds: number[]): Promise<Map<number, AlertSettings>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select().from(alertSettings).where(inArray(alertSettings.userId, userIds));
  return new Map(rows.map(({ userId, ...settings }) => [userId, settings]));
}

export async function saveOwnSettings(db: Queryable, userId: number, settings: AlertSettings): Promise<void> {
  await db
    .insert(alertSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: alertSettings.userId, set: settings });
}

export async function deleteOwnSettings(db: Queryable, userId: number): Promise<void> {
  await db.delete(alertSettings).where(eq(alertSettings.userId, userId));
}

export async function findDefaults(db: Queryable): Promise<AlertDefaults | undefined> {
  const [row] = await db
    .select({ kinds: alertDefaults.kinds, channels: alertDefaults.channels })
    .from(alertDefaults)
    .where(eq(alertDefaults.id, DEFAULTS_ROW));
  return row;
}

export async function saveDefaults(db: Queryable, defaults: AlertDefaults): Promise<void> {
  await db
    .insert(alertDefaults)
    .values({ id: DEFAULTS_ROW, ...defaults })
    .onConflictDoUpdate({ target: alertDefaults.id, set: defaults });
}

export async function insertDeliveries(
  db: Queryable,
  rows: { userId: number; logEntryId: number; channel: 'email' | 'push' }[],
): Promise<void> {
  for (const chunk of chunked(rows, DELIVERIES_PER_INSERT)) await db.insert(alertDeliveries).values(chunk);
}

/** Rows a statement inserts: a few parameters a row, far below the limit. */
const DELIVERIES_PER_INSERT = 5_000;

/** The users with e-mail alerts waiting since before `waitedSince`. */
export async function findUsersWithMailDue(db: Queryable, waitedSince: Date): Promise<number[]> {
  const rows = await db
    .select({ userId: alertDeliveries.userId })
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.channel, 'email'), isNull(alertDeliveries.deliveredAt)))
    .groupBy(alertDeliveries.userId)
    .having(lte(sql`min(${alertDeliveries.createdAt})`, waitedSince));
  return rows.map((row) => row.userId);
}

/** A user's waiting e-mail alerts, locked for this transaction; another instance skips them. */
export async function claimUserMail(db: Queryable, userId: number): Promise<AlertDeliveryRow[]> {
  return db
    .select()
    .from(alertDeliveries)
    .where(
      and(
        eq(alertDeliveries.userId, userId),
        eq(alertDeliveries.channel, 'email'),
        isNull(alertDeliveries.deliveredAt),
      ),
    )
    .orderBy(asc(alertDeliveries.id))
    .for('update', { skipLocked: true });
}

export async function markDelivered(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(alertDeliveries)
    .set({ deliveredAt: sql`now()`, claimedUntil: null })
    .where(inArray(alertDeliveries.id, ids));
}

/**
 * Takes up to `limit` pushes to send, for `leaseMs`: another instance leaves them alone until
 * then, and takes them up after if this one died while sending.
 */
export async function claimPushes(db: Queryable, limit: number, leaseMs: number): Promise<AlertDeliveryRow[]> {
  const due = db
    .select({ id: alertDeliveries.id })
    .from(alertDeliveries)
    .where(
      and(
        eq(alertDeliveries.channel, 'push'),
        isNull(alertDeliveries.deliveredAt),
        or(isNull(alertDeliveries.claimedUntil), lte(alertDeliveries.claimedUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(alertDeliveries.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(alertDeliveries)
    .set({
      claimedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      attempts: sql`${alertDeliveries.attempts} + 1`,
    })
    .where(inArray(alertDeliveries.id, due))
    .returning();
}

/** Gives a failed push back to be tried again once its lease is over. */
export async function releasePush(db: Queryable, id: number): Promise<void> {
  await db
    .update(alertDeliveries)
    .set({ claimedUntil: sql`now() + interval '30 seconds'` })
    .where(eq(alertDeliveries.id, id));
}

export async function findPushKeys(db: Queryable): Promise<{ publicKey: string; privateKey: string } | undefined> {
  const [row] = await db
    .select({ publicKey: pushKeys.publicKey, privateKey: pushKeys.privateKey })
    .from(pushKeys)
    .where(eq(pushKeys.id, DEFAULTS_ROW));
  return row;
}

/** Keeps the key pair unless another instance kept one first; returns the pair that is kept. */
export async function keepPushKeys(
  db: Queryable,
  keys: { publicKey: string; privateKey: string },
): Promise<{ publicKey: string; privateKey: string }> {
  await db
    .insert(pushKeys)
    .values({ id: DEFAULTS_ROW, ...keys })
    .onConflictDoNothing();
  return (await findPushKeys(db))!;
}

/**
 * Keeps a browser's subscription for the user, then drops the user's subscriptions beyond `limit`:
 * those failing first, then the oldest; never the one just saved. An endpoint stored for another
 * user moves to this one only when the same keys come with it (the same browser, signed in with
 * another account): false, and nothing changed, when they differ.
 */
export async function saveSubscription(
  db: Database,
  userId: number,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  limit: number,
): Promise<boolean> {
  const values = { userId, endpoint: subscription.endpoint, ...subscription.keys };
  return db.transaction(async (tx) => {
    const saved = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { ...values, failures: 0, failingSince: null },
        setWhere: or(
          eq(pushSubscriptions.userId, userId),
          and(
            eq(pushSubscriptions.p256dh, subscription.keys.p256dh),
            eq(pushSubscriptions.auth, subscription.keys.auth),
          ),
        ),
      })
      .returning({ id: pushSubscriptions.id });
    if (saved.length === 0) return false;
    const kept = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(
        desc(eq(pushSubscriptions.endpoint, subscription.endpoint)),
        asc(pushSubscriptions.failures),
        desc(pushSubscriptions.id),
      )
      .limit(limit);
    await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, kept)));
    return true;
  });
}

export async function deleteSubscription(db: Queryable, userId: number, endpoint: string): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** A subscription the push service no longer knows: whoever it was for. */
export async function deleteGoneSubscription(db: Queryable, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
}

/** The subscriptions of the given users, those that work before those failing. */
export async function findSubscriptionsOfUsers(db: Queryable, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select()
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, userIds))
    .orderBy(asc(pushSubscriptions.failures), asc(pushSubscriptions.id));
}

/** Subscriptions whose push service took a push: their run of failures is over. */
export async function recordPushesTaken(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(pushSubscriptions)
    .set({ failures: 0, failingSince: null })
    .where(and(inArray(pushSubscriptions.id, ids), gt(pushSubscriptions.failures, 0)));
}

/**
 * Subscriptions whose push service refused or did not answer: one more failure each, and those
 * that have now failed `giveUp.failures` times in a row over at least `giveUp.seconds` are deleted
 * (judged on the database's clock). Returns how many were given up.
 */
export async function recordPushesFailed(
  db: Queryable,
  ids: number[],
  giveUp: { failures: number; seconds: number },
): Promise<number> {
  if (ids.length === 0) return 0;
  await db
    .update(pushSubscriptions)
    .set({
      failures: sql`${pushSubscriptions.failures} + 1`,
      failingSince: sql`coalesce(${pushSubscriptions.failingSince}, now())`,
    })
    .where(inArray(pushSubscriptions.id, ids));
  const givenUp = await db
    .delete(pushSubscriptions)
    .where(
      and(
        inArray(pushSubscriptions.id, ids),
        gt(pushSubscriptions.failures, giveUp.failures - 1),
        lte(pushSubscriptions.failingSince, sql`now() - make_interval(secs => ${giveUp.seconds})`),
      ),
    )
    .returning({ id: pushSubscriptions.id });
  return givenUp.length;
}
