import type { AccessLevel } from '@pivot/contracts';
import { type Placeholder, and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sprinklerAccess } from './access.table';

/**
 * Grants access at a level, or sets the level of the grant the user has. Granting again at the
 * same level writes nothing, so the machine's cached detail stays valid.
 */
export async function grantAccess(
  db: Queryable,
  sprinklerId: number,
  userId: number,
  level: AccessLevel,
): Promise<void> {
  await db
    .insert(sprinklerAccess)
    .values({ sprinklerId, userId, level })
    .onConflictDoUpdate({
      target: [sprinklerAccess.sprinklerId, sprinklerAccess.userId],
      set: { level },
      setWhere: sql`${sprinklerAccess.level} <> excluded.level`,
    });
}

/** Revokes access; false when the user had none. */
export async function revokeAccess(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
  const rows = await db
    .delete(sprinklerAccess)
    .where(and(eq(sprinklerAccess.sprinklerId, sprinklerId), eq(sprinklerAccess.userId, userId)))
    .returning({ userId: sprinklerAccess.userId });
  return rows.length > 0;
}

/** The level of the user's grant of the machine; null without one. */
export async function grantedLevel(db: Queryable, sprinklerId: number, userId: number): Promise<AccessLevel | null> {
  const rows = await db
    .select({ level: sprinklerAccess.level })
    .from(sprinklerAccess)
    .where(and(eq(sprinklerAccess.sprinklerId, sprinklerId), eq(sprinklerAccess.userId, userId)));
  return rows[0]?.level ?? null;
}

/**
 * The machines granted to a user (only those at `level`, when given), as a subquery of their ids
 * to filter other queries with.
 */
export function machineIdsGrantedTo(db: Queryable, userId: number | Placeholder, level?: AccessLevel) {
  return db
    .select({ sprinklerId: sprinklerAccess.sprinklerId })
    .from(sprinklerAccess)
    .where(and(eq(sprinklerAccess.userId, userId), level && eq(sprinklerAccess.level, level)));
}

/**
 * How many machines are granted to the user: their grants counted on the user's index, never the
 * fleet's rows (a grant's machine always exists: its row's removal removes the grant).
 */
export async function countMachinesGrantedTo(db: Queryable, userId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(sprinklerAccess).where(eq(sprinklerAccess.userId, userId));
  return row?.total ?? 0;
}

/** The users granted a machine, as a subquery of their ids to filter other queries with. */
export function userIdsGrantedTo(db: Queryable, sprinklerId: number) {
  return db
    .select({ userId: sprinklerAccess.userId })
    .from(sprinklerAccess)
    .where(eq(sprinklerAccess.sprinklerId, sprinklerId));
}

/** Every grant of the given machines, or of the given users. */
export async function grantsOf(
  db: Queryable,
  of: { sprinklerIds: number[] } | { userIds: number[] },
): Promise<{ sprinklerId: number; userId: number; level: AccessLevel }[]> {
  const condition =
    'sprinklerIds' in of
      ? of.sprinklerIds.length > 0 && inArray(sprinklerAccess.sprinklerId, of.sprinklerIds)
      : of.userIds.length > 0 && inArray(sprinklerAccess.userId, of.userIds);
  if (!condition) return [];
  return db
    .select({ sprinklerId: sprinklerAccess.sprinklerId, userId: sprinklerAccess.userId, level: sprinklerAccess.level })
    .from(sprinklerAccess)
    .where(condition);
}
