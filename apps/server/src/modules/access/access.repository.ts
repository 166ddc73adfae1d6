import { type AccessLevel, MANAGING_ROLES } from '@pivot/contracts';
import { type Placeholder, and, count, eq, exists, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  dealerGrantMachines,
  dealerGrants,
  dealerMembers,
  farmMachines,
  farmMembers,
  sprinklerAccess,
} from './access.table';
import { DEALER_GRANT_IN_FORCE } from './dealers.repository';

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

/** A farm's machine a dealer's grant covers: all the farm's, or one it names. */
function dealtMachine(db: Queryable) {
  const named = db
    .select({ one: sql`1` })
    .from(dealerGrantMachines)
    .where(
      and(
        eq(dealerGrantMachines.grantId, dealerGrants.id),
        eq(dealerGrantMachines.sprinklerId, farmMachines.sprinklerId),
      ),
    );
  return and(eq(farmMachines.farmId, dealerGrants.farmId), or(dealerGrants.allMachines, exists(named)));
}

/** The members who run a farm: its owners and managers. */
const MANAGING = inArray(farmMembers.role, [...MANAGING_ROLES]);

/**
 * Who may use which machine, and how: each grant at its level, and each machine of a farm at
 * control for the people who run that farm. A person may appear twice for one machine (a
 * manager with a grant of their own); control is the higher level.
 */
function effectiveAccess(db: Queryable, where: { userIds?: number[]; sprinklerIds?: number[] }) {
  const grants = db
    .select({ sprinklerId: sprinklerAccess.sprinklerId, userId: sprinklerAccess.userId, level: sprinklerAccess.level })
    .from(sprinklerAccess)
    .where(
      and(
        where.userIds && inArray(sprinklerAccess.userId, where.userIds),
        where.sprinklerIds && inArray(sprinklerAccess.sprinklerId, where.sprinklerIds),
      ),
    );
  const managed = db
    .select({
      sprinklerId: farmMachines.sprinklerId,
      userId: farmMembers.userId,
      level: sql<AccessLevel>`'control'`.as('level'),
    })
    .from(farmMachines)
    .innerJoin(farmMembers, and(eq(farmMembers.farmId, farmMachines.farmId), MANAGING))
    .where(
      and(
        where.userIds && inArray(farmMembers.userId, where.userIds),
        where.sprinklerIds && inArray(farmMachines.sprinklerId, where.sprinklerIds),
      ),
    );
  const dealt = db
    .select({ sprinklerId: farmMachines.sprinklerId, userId: dealerMembers.userId, level: dealerGrants.level })
    .from(dealerMembers)
    .innerJoin(dealerGrants, DEALER_GRANT_IN_FORCE)
    .innerJoin(farmMachines, dealtMachine(db))
    .where(
      and(
        where.userIds && inArray(dealerMembers.userId, where.userIds),
        where.sprinklerIds && inArray(farmMachines.sprinklerId, where.sprinklerIds),
      ),
    );
  return grants.unionAll(managed).unionAll(dealt);
}

const higher = (a: AccessLevel | undefined, b: AccessLevel): AccessLevel => (a === 'control' ? a : b);

/** The level at which the user may use the machine (by a grant or by running its farm); null for none. */
export async function effectiveLevel(db: Queryable, sprinklerId: number, userId: number): Promise<AccessLevel | null> {
  let level: AccessLevel | undefined;
  for (const row of await effectiveAccess(db, { userIds: [userId], sprinklerIds: [sprinklerId] }))
    level = higher(level, row.level);
  return level ?? null;
}

/** The ids of a farm's machines, as a subquery. */
export function machineIdsInFarm(db: Queryable, farmId: number) {
  return db.select({ sprinklerId: farmMachines.sprinklerId }).from(farmMachines).where(eq(farmMachines.farmId, farmId));
}

/**
 * The machines the user may use (only those they may control, when `level` is control; only
 * those of one farm, when `farmId` is given), as a subquery of their ids to filter other
 * queries with: their grants and their farms' machines.
 */
export function machineIdsUsableBy(db: Queryable, userId: number | Placeholder, level?: 'control', farmId?: number) {
  const granted = db
    .select({ sprinklerId: sprinklerAccess.sprinklerId })
    .from(sprinklerAccess)
    .where(
      and(
        eq(sprinklerAccess.userId, userId),
        level && eq(sprinklerAccess.level, level),
        farmId === undefined ? undefined : inArray(sprinklerAccess.sprinklerId, machineIdsInFarm(db, farmId)),
      ),
    );
  const managed = db
    .select({ sprinklerId: farmMachines.sprinklerId })
    .from(farmMachines)
    .innerJoin(farmMembers, eq(farmMembers.farmId, farmMachines.farmId))
    .where(
      and(eq(farmMembers.userId, userId), MANAGING, farmId === undefined ? undefined : eq(farmMachines.farmId, farmId)),
    );
  const dealt = db
    .select({ sprinklerId: farmMachines.sprinklerId })
    .from(dealerMembers)
    .innerJoin(dealerGrants, DEALER_GRANT_IN_FORCE)
    .innerJoin(farmMachines, dealtMachine(db))
    .where(
      and(
        eq(dealerMembers.userId, userId),
        level && eq(dealerGrants.level, level),
        farmId === undefined ? undefined : eq(farmMachines.farmId, farmId),
      ),
    );
  return granted.union(managed).union(dealt);
}

/**
 * How many machines the user may use: their grants and their farms' machines, counted on the
 * user's own rows, never the fleet's.
 */
export async function countMachinesUsableBy(db: Queryable, userId: number): Promise<number> {
  const usable = machineIdsUsableBy(db, userId).as('usable');
  const [row] = await db.select({ total: count() }).from(usable);
  return row?.total ?? 0;
}

/** The users granted a machine, as a subquery of their ids to filter other queries with. */
export function userIdsGrantedTo(db: Queryable, sprinklerId: number) {
  return db
    .select({ userId: sprinklerAccess.userId })
    .from(sprinklerAccess)
    .where(eq(sprinklerAccess.sprinklerId, sprinklerId));
}

type Of = { sprinklerIds: number[] } | { userIds: number[] };

/** Every grant of the given machines, or of the given users: grants alone, as the administrators manage them. */
export async function grantsOf(
  db: Queryable,
  of: Of,
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

/**
 * Who may use the given machines, or what the given users may use, at which level: grants and
 * farms run together, one row a person and machine.
 */
export async function usableOf(
  db: Queryable,
  of: Of,
): Promise<{ sprinklerId: number; userId: number; level: AccessLevel }[]> {
  if (('sprinklerIds' in of ? of.sprinklerIds : of.userIds).length === 0) return [];
  const rows = await effectiveAccess(db, of);
  const byPair = new Map<string, { sprinklerId: number; userId: number; level: AccessLevel }>();
  for (const row of rows) {
    const key = `${row.sprinklerId}:${row.userId}`;
    byPair.set(key, { ...row, level: higher(byPair.get(key)?.level, row.level) });
  }
  return [...byPair.values()];
}
