import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { passkeyRegistrations, passkeys } from './passkeys.table';
import { signInChallenges } from './second-factor.table';

export type PasskeyRow = typeof passkeys.$inferSelect;

export async function listPasskeys(db: Queryable, userId: number): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.createdAt), desc(passkeys.id));
}

export async function countPasskeys(db: Queryable, userId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.total ?? 0;
}

/** A passkey by the id the browser names it with, only when it is this user's. */
export async function findUsersPasskey(
  db: Queryable,
  userId: number,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.credentialId, credentialId)));
  return row;
}

/** Keeps a new passkey; undefined when its credential is kept already (by this account or another). */
export async function insertPasskey(
  db: Queryable,
  values: {
    userId: number;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string[];
    name: string;
  },
): Promise<PasskeyRow | undefined> {
  const [row] = await db.insert(passkeys).values(values).onConflictDoNothing().returning();
  return row;
}

/**
 * Takes a sign-in's new counter, once: false when another sign-in moved it since it was read, so
 * the same answer sent twice at once signs in no second time.
 */
export async function takePasskeyUse(
  db: Queryable,
  id: number,
  seenCounter: number,
  newCounter: number,
): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: sql`now()` })
    .where(and(eq(passkeys.id, id), eq(passkeys.counter, seenCounter)))
    .returning({ id: passkeys.id });
  return rows.length === 1;
}

export async function deletePasskey(db: Queryable, userId: number, id: number): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning();
  return row;
}

/** Every passkey of the user gone (an administrator's reset of the second factor); how many there were. */
export async function deleteUsersPasskeys(db: Queryable, userId: number): Promise<number> {
  await db.delete(passkeyRegistrations).where(eq(passkeyRegistrations.userId, userId));
  const rows = await db.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  return rows.length;
}

/** The challenge of a passkey being made, in place of one the user asked for before. */
export async function saveRegistrationChallenge(
  db: Queryable,
  values: { userId: number; challenge: string; expiresAt: Date },
): Promise<void> {
  await db
    .insert(passkeyRegistrations)
    .values(values)
    .onConflictDoUpdate({
      target: passkeyRegistrations.userId,
      set: { challenge: values.challenge, expiresAt: values.expiresAt },
    });
}

/** Spends the user's registration challenge: the challenge when it was live, else undefined. */
export async function takeRegistrationChallenge(db: Queryable, userId: number): Promise<string | undefined> {
  const [row] = await db
    .delete(passkeyRegistrations)
    .where(eq(passkeyRegistrations.userId, userId))
    .returning({ challenge: passkeyRegistrations.challenge, expiresAt: passkeyRegistrations.expiresAt });
  return row && row.expiresAt.getTime() > Date.now() ? row.challenge : undefined;
}

/** Gives a live sign-in challenge the WebAuthn challenge its passkey prompt is to sign. */
export async function setPasskeyChallenge(db: Queryable, tokenHash: string, challenge: string): Promise<boolean> {
  const rows = await db
    .update(signInChallenges)
    .set({ passkeyChallenge: challenge })
    .where(and(eq(signInChallenges.tokenHash, tokenHash), gt(signInChallenges.expiresAt, sql`now()`)))
    .returning({ tokenHash: signInChallenges.tokenHash });
  return rows.length === 1;
}
