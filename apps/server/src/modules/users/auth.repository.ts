import {
  and,
  count,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { users } from './users.table';
import { accessTokenKeys, linkTokens, refreshTokens, sessions, throttleEvents } from './auth.table';
import { secondFactorOnSql } from './second-factor.repository';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(
  db: Queryable,
  values: { userId: number; persistent: boolean; expiresAt: Date; ip: string; userAgent: string | null },
): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(values).returning();
  return row!;
}

export async function insertRefreshToken(db: Queryable, sessionId: string, tokenHash: string): Promise<void> {
  await db.insert(refreshTokens).values({ sessionId, tokenHash });
}

/**
 * The token with its session; `justUsed` tells whether it was used within the last `graceSeconds`,
 * judged on the database's clock, which every instance shares.
 */
export async function findRefreshToken(db: Queryable, tokenHash: string, graceSeconds = 0) {
  const [row] = await db
    .select({
      token: refreshTokens,
      session: sessions,
      justUsed: sql<boolean>`coalesce(${refreshTokens.usedAt} > now() - make_interval(secs => ${graceSeconds}), false)`,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks a token used; false when another request used it first. */
export async function useRefreshToken(db: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt)))
    .returning({ tokenHash: refreshTokens.tokenHash });
  return rows.length === 1;
}

export async function extendSession(db: Queryable, sessionId: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Signs the user out everywhere, or everywhere but the given session. */
export async function revokeUserSessions(db: Queryable, userId: number, exceptSessionId?: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    );
}

/**
 * The user of a session that is neither revoked nor expired, as every signed-in request needs it.
 * Asked on every request, so built once per database: on PostgreSQL it is a named prepared
 * statement, planned once per connection.
 */
export function prepareSessionUserQuery(
  db: Database,
  secondFactorRequiredByFarm: (userId: SQLWrapper) => SQL<boolean>,
) {
  const query = db
    .select({
      id: users.id,
      email: users.email,
      admin: users.admin,
      language: users.language,
      secondFactorOn: secondFactorOnSql(users.id),
      secondFactorRequiredByFarm: secondFactorRequiredByFarm(users.id),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .prepare('session_user');
  return async (sessionId: string, userId: number) => (await query.execute({ sessionId, userId }))[0];
}

/**
 * Of the given sessions, those neither revoked nor expired (on the database's clock) whose user
 * still exists, with the user's id and admin flag as they are now.
 */
export async function findLiveSessions(
  db: Queryable,
  sessionIds: string[],
): Promise<Map<string, { userId: number; admin: boolean }>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({ id: sessions.id, userId: users.id, admin: users.admin })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.id, sessionIds), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
  return new Map(rows.map((row) => [row.id, { userId: row.userId, admin: row.admin }]));
}

export type LinkPurpose = (typeof linkTokens.$inferSelect)['purpose'];

/** A link to mail, without its token yet; its id. */
export async function insertLinkToken(
  db: Queryable,
  values: { userId: number; purpose: LinkPurpose; mailBy: Date },
): Promise<number> {
  const [row] = await db
    .insert(linkTokens)
    .values({ userId: values.userId, purpose: values.purpose, expiresAt: values.mailBy })
    .returning({ id: linkTokens.id });
  return row!.id;
}

/**
 * Gives a link that is neither used nor expired the token of the mail being sent, replacing the
 * one of an earlier attempt, valid from now for its purpose's lifetime; false for a link no
 * longer wanted.
 */
export async function issueLinkToken(
  db: Queryable,
  id: number,
  tokenHash: string,
  lifetimeMs: Record<LinkPurpose, number>,
): Promise<boolean> {
  const lifetimeSeconds = sql`(case ${linkTokens.purpose} when 'activation' then ${lifetimeMs.activation / 1000}::float8 else ${lifetimeMs.reset / 1000}::float8 end)`;
  const rows = await db
    .update(linkTokens)
    .set({ tokenHash, expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})` })
    .where(and(eq(linkTokens.id, id), isNull(linkTokens.usedAt), gt(linkTokens.expiresAt, sql`now()`)))
    .returning({ id: linkTokens.id });
  return rows.length === 1;
}

/** Uses a mailed link once: the token must match the user and purpose, be unused and unexpired. */
export async function consumeLinkToken(
  db: Queryable,
  userId: number,
  tokenHash: string,
): Promise<LinkPurpose | undefined> {
  const [row] = await db
    .update(linkTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(linkTokens.userId, userId),
        eq(linkTokens.tokenHash, tokenHash),
        isNull(linkTokens.usedAt),
        gt(linkTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ purpose: linkTokens.purpose });
  return row?.purpose;
}

/** A newer reset link replaces the older ones. */
export async function expireLinkTokens(db: Queryable, userId: number, purpose: LinkPurpose): Promise<void> {
  await db
    .update(linkTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(linkTokens.userId, userId), eq(linkTokens.purpose, purpose), isNull(linkTokens.usedAt)));
}

/** Links used (or replaced) and links expired: they open nothing any more. */
export async function deleteDeadLinkTokens(db: Queryable): Promise<number> {
  const rows = await db
    .delete(linkTokens)
    .where(or(isNotNull(linkTokens.usedAt), lte(linkTokens.expiresAt, sql`now()`)))
    .returning({ id: linkTokens.id });
  return rows.length;
}

/** Sessions signed out, revoked or expired, with their refresh tokens: none can be refreshed again. */
export async function deleteEndedSessions(db: Queryable): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(or(isNotNull(sessions.revokedAt), lte(sessions.expiresAt, sql`now()`)))
    .returning({ id: sessions.id });
  return rows.length;
}

export async function recordThrottleEvent(db: Queryable, kind: string, key: string): Promise<void> {
  await db.insert(throttleEvents).values({ kind, key });
}

export async function countThrottleEvents(db: Queryable, kind: string, key: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(throttleEvents)
    .where(and(eq(throttleEvents.kind, kind), eq(throttleEvents.key, key), gte(throttleEvents.at, since)));
  return row?.value ?? 0;
}

/** Failures of a key within the window, and how long ago the last one was, on the database's clock. */
export async function summarizeThrottleEvents(
  db: Queryable,
  kind: string,
  key: string,
  windowMs: number,
): Promise<{ failures: number; sinceLastMs: number }> {
  const [row] = await db
    .select({
      failures: count(),
      sinceLastMs: sql`coalesce(extract(epoch from now() - max(${throttleEvents.at})) * 1000, 0)`.mapWith(Number),
    })
    .from(throttleEvents)
    .where(
      and(
        eq(throttleEvents.kind, kind),
        eq(throttleEvents.key, key),
        gte(throttleEvents.at, sql`now() - make_interval(secs => ${windowMs / 1000})`),
      ),
    );
  return { failures: row?.failures ?? 0, sinceLastMs: row?.sinceLastMs ?? 0 };
}

export async function clearThrottleEvents(db: Queryable, kind: string, key: string): Promise<void> {
  await db.delete(throttleEvents).where(and(eq(throttleEvents.kind, kind), eq(throttleEvents.key, key)));
}

export async function deleteThrottleEventsBefore(db: Queryable, before: Date): Promise<void> {
  await db.delete(throttleEvents).where(lt(throttleEvents.at, before));
}

export async function insertAccessTokenKey(db: Queryable, kid: string, publicKey: string): Promise<void> {
  await db.insert(accessTokenKeys).values({ kid, publicKey });
}

export async function findAccessTokenKey(db: Queryable, kid: string): Promise<string | undefined> {
  const [row] = await db
    .select({ publicKey: accessTokenKeys.publicKey })
    .from(accessTokenKeys)
    .where(eq(accessTokenKeys.kid, kid));
  return row?.publicKey;
}

/** Keys made more than `seconds` ago, on the database's clock. */
export async function deleteAccessTokenKeysOlderThan(db: Queryable, seconds: number): Promise<void> {
  await db.delete(accessTokenKeys).where(lt(accessTokenKeys.createdAt, sql`now() - make_interval(secs => ${seconds})`));
}
