import { type SQL, type SQLWrapper, and, count, eq, gt, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { passkeyRegistrations, passkeys } from './passkeys.table';
import { recoveryCodes, rememberedBrowsers, secondFactors, signInChallenges } from './second-factor.table';

export type SecondFactorRow = typeof secondFactors.$inferSelect;
export type SignInChallengeRow = typeof signInChallenges.$inferSelect;

export async function findSecondFactor(db: Queryable, userId: number): Promise<SecondFactorRow | undefined> {
  const [row] = await db.select().from(secondFactors).where(eq(secondFactors.userId, userId));
  return row;
}

/** A new set-up in place of a pending one; none is made over a second factor in force. */
export async function savePendingSecondFactor(db: Queryable, userId: number, sealedSecret: string): Promise<boolean> {
  const rows = await db
    .insert(secondFactors)
    .values({ userId, sealedSecret })
    .onConflictDoUpdate({
      target: secondFactors.userId,
      set: { sealedSecret, lastStep: 0, createdAt: sql`now()` },
      setWhere: isNull(secondFactors.enabledAt),
    })
    .returning({ userId: secondFactors.userId });
  return rows.length === 1;
}

/** Turns a pending set-up on with the step of the code that confirmed it. */
export async function enableSecondFactor(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(secondFactors)
    .set({ enabledAt: sql`now()`, lastStep: step })
    .where(and(eq(secondFactors.userId, userId), isNull(secondFactors.enabledAt), lt(secondFactors.lastStep, step)))
    .returning({ userId: secondFactors.userId });
  return rows.length === 1;
}

/**
 * Takes a code's step, once: false when that step or a later one was taken already, so a code
 * seen over a shoulder or sent twice at once signs in no second time.
 */
export async function takeStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(secondFactors)
    .set({ lastStep: step })
    .where(and(eq(secondFactors.userId, userId), lt(secondFactors.lastStep, step)))
    .returning({ userId: secondFactors.userId });
  return rows.length === 1;
}

/** The second factor off: its secret, its recovery codes and the browsers it remembered gone. */
export async function deleteSecondFactor(db: Queryable, userId: number): Promise<boolean> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(rememberedBrowsers).where(eq(rememberedBrowsers.userId, userId));
  const rows = await db
    .delete(secondFactors)
    .where(eq(secondFactors.userId, userId))
    .returning({ enabledAt: secondFactors.enabledAt });
  return Boolean(rows[0]?.enabledAt);
}

export async function replaceRecoveryCodes(db: Queryable, userId: number, codeHashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

export async function countRecoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.left ?? 0;
}

/** Uses a recovery code, once: false when it is not the user's or was used. */
export async function useRecoveryCode(db: Queryable, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function insertChallenge(
  db: Queryable,
  values: { tokenHash: string; userId: number; persistent: boolean; expiresAt: Date },
): Promise<void> {
  await db.insert(signInChallenges).values(values);
}

/** A challenge still live (not expired), judged on the database's clock. */
export async function findLiveChallenge(db: Queryable, tokenHash: string): Promise<SignInChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(signInChallenges)
    .where(and(eq(signInChallenges.tokenHash, tokenHash), gt(signInChallenges.expiresAt, sql`now()`)));
  return row;
}

/** Counts a wrong code against the challenge; gives the failures so far. */
export async function recordChallengeFailure(db: Queryable, tokenHash: string): Promise<number> {
  const [row] = await db
    .update(signInChallenges)
    .set({ failures: sql`${signInChallenges.failures} + 1` })
    .where(eq(signInChallenges.tokenHash, tokenHash))
    .returning({ failures: signInChallenges.failures });
  return row?.failures ?? Number.POSITIVE_INFINITY;
}

/** Spends the challenge: false when another request spent it first. */
export async function deleteChallenge(db: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(signInChallenges)
    .where(eq(signInChallenges.tokenHash, tokenHash))
    .returning({ tokenHash: signInChallenges.tokenHash });
  return rows.length === 1;
}

export async function insertRememberedBrowser(
  db: Queryable,
  values: { tokenHash: string; userId: number; expiresAt: Date },
): Promise<void> {
  await db.insert(rememberedBrowsers).values(values);
}

export async function isRememberedBrowser(db: Queryable, tokenHash: string, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: rememberedBrowsers.userId })
    .from(rememberedBrowsers)
    .where(
      and(
        eq(rememberedBrowsers.tokenHash, tokenHash),
        eq(rememberedBrowsers.userId, userId),
        gt(rememberedBrowsers.expiresAt, sql`now()`),
      ),
    );
  return row !== undefined;
}

export async function forgetRememberedBrowsers(db: Queryable, userId: number): Promise<void> {
  await db.delete(rememberedBrowsers).where(eq(rememberedBrowsers.userId, userId));
}

/**
 * Whether the user has a second factor in force: an authenticator app confirmed or a passkey
 * (docs/two-factor.md). As SQL, for the session's user read on every request.
 */
export function secondFactorOnSql(userId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`(exists (select 1 from ${secondFactors} where ${secondFactors.userId} = ${userId} and ${secondFactors.enabledAt} is not null) or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId}))`;
}

export async function hasSecondFactor(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await db.select({ on: secondFactorOnSql(sql`${userId}`) }).from(sql`(select 1) as one`);
  return row?.on === true;
}

/** Challenges, remembered browsers and passkey registrations past their time, and set-ups never confirmed within a day. */
export async function deleteDeadSecondFactorRecords(db: Queryable): Promise<void> {
  await db.delete(signInChallenges).where(lte(signInChallenges.expiresAt, sql`now()`));
  await db.delete(passkeyRegistrations).where(lte(passkeyRegistrations.expiresAt, sql`now()`));
  await db.delete(rememberedBrowsers).where(lte(rememberedBrowsers.expiresAt, sql`now()`));
  await db
    .delete(secondFactors)
    .where(and(isNull(secondFactors.enabledAt), lte(secondFactors.createdAt, sql`now() - interval '1 day'`)));
}
