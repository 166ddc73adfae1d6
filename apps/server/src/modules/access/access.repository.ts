import { type Placeholder, and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sprinklerAccess } from './access.table';

/** Grants access; granting twice is harmless. */
export async function grantAccess(db: Queryable, sprinklerId: number, userId: number): Promise<void> {
  await db.insert(sprinklerAccess).values({ sprinklerId, userId }).onConflictDoNothing();
}

/** Revokes access; false when the user had none. */
export async function revokeAccess(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
  const rows = await db
    .delete(sprinklerAccess)
    .where(and(eq(sprinklerAccess.sprinklerId, sprinklerId), eq(sprinklerAccess.userId, userId)))
    .returning({ userId: sprinklerAccess.userId });
  return rows.length > 0;
}

export async function isGranted(db: Queryable, sprinklerId: number, userId: number): Promise<boolean> {
  const rows = await db
    .select({ userId: sprinklerAccess.userId })
    .from(sprinklerAccess)
    .where(and(eq(sprinklerAccess.sprinklerId, sprinklerId), eq(sprinklerAccess.userId, userId)));
  return rows.length > 0;
}

/** The machines granted to a user, as a subquery of their ids to filter other queries with. */
export function machineIdsGrantedTo(db: Queryable, userId: number | Placeholder) {
  return db
    .select({ sprinklerId: sprinklerAccess.sprinklerId })
    .from(sprinklerAccess)
    .where(eq(sprinklerAccess.userId, userId));
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
): Promise<{ sprinklerId: number; userId: number }[]> {
  const condition =
    'sprinklerIds' in of
      ? of.sprinklerIds.length > 0 && inArray(sprinklerAccess.sprinklerId, of.sprinklerIds)
      : of.userIds.length > 0 && inArray(sprinklerAccess.userId, of.userIds);
  if (!condition) return [];
  return db
    .select({ sprinklerId: sprinklerAccess.sprinklerId, userId: sprinklerAccess.userId })
    .from(sprinklerAccess)
    .where(condition);
}
