import { type AccessLevel, type FarmRole, MANAGING_ROLES } from '@pivot/contracts';
import {
  type Placeholder,
  type SQL,
  type SQLWrapper,
  and,
  asc,
  count,
  eq,
  inArray,
  isNotNull,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { farmMachines, farmMembers, farms, sprinklerAccess } from './access.table';
import { farmIdsDealtTo } from './dealers.repository';

export type FarmRow = typeof farms.$inferSelect;
export type FarmSummaryRow = FarmRow & { role: FarmRole | null; machineCount: number; memberCount: number };

/** Farm names are unique; the database says which insert lost. */
function isNameTaken(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause ?? error;
  return (cause as { code?: string }).code === '23505';
}

/** The new farm, or null when a farm of that name exists. */
export async function insertFarm(db: Queryable, name: string): Promise<FarmRow | null> {
  const rows = await db.insert(farms).values({ name }).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

/** The renamed farm; undefined when there is none; null when another farm has the name. */
export async function renameFarm(db: Queryable, id: number, name: string): Promise<FarmRow | undefined | null> {
  try {
    const [row] = await db.update(farms).set({ name }).where(eq(farms.id, id)).returning();
    return row;
  } catch (error) {
    if (isNameTaken(error)) return null;
    throw error;
  }
}

export async function findFarm(db: Queryable, id: number): Promise<FarmRow | undefined> {
  const [row] = await db.select().from(farms).where(eq(farms.id, id));
  return row;
}

/** The first farms by id, at most `limit` of them. */
export function findFarms(db: Queryable, limit: number): Promise<FarmRow[]> {
  return db.select().from(farms).orderBy(asc(farms.id)).limit(limit);
}

/**
 * Farms with the user's role in each and how many machines and members each has: those the
 * user belongs to, or every farm (`all`, for the server's administrators), by name.
 */
export async function listFarms(db: Queryable, userId: number, all: boolean): Promise<FarmSummaryRow[]> {
  const machineCount = db.select({ total: count() }).from(farmMachines).where(eq(farmMachines.farmId, farms.id));
  const memberCount = db.select({ total: count() }).from(farmMembers).where(eq(farmMembers.farmId, farms.id));
  const own = db
    .select({ farmId: farmMembers.farmId, role: farmMembers.role })
    .from(farmMembers)
    .where(eq(farmMembers.userId, userId))
    .as('own');
  return db
    .select({
      id: farms.id,
      name: farms.name,
      requireSecondFactor: farms.requireSecondFactor,
      createdAt: farms.createdAt,
      role: own.role,
      machineCount: sql<number>`(${machineCount})::int`,
      memberCount: sql<number>`(${memberCount})::int`,
    })
    .from(farms)
    .leftJoin(own, eq(own.farmId, farms.id))
    .where(all ? undefined : isNotNull(own.farmId))
    .orderBy(asc(farms.name), asc(farms.id));
}

/**
 * The farms the user may switch their lists to, by name: those they belong to and those granted to
 * their dealers, or every farm (`all`, for the server's administrators); only `farmId`, when given.
 */
export function listSwitchableFarms(
  db: Queryable,
  userId: number,
  all: boolean,
  farmId?: number,
): Promise<{ id: number; name: string }[]> {
  const own = db.select({ farmId: farmMembers.farmId }).from(farmMembers).where(eq(farmMembers.userId, userId));
  return db
    .select({ id: farms.id, name: farms.name })
    .from(farms)
    .where(
      and(
        farmId === undefined ? undefined : eq(farms.id, farmId),
        all ? undefined : or(inArray(farms.id, own), inArray(farms.id, farmIdsDealtTo(db, userId))),
      ),
    )
    .orderBy(asc(farms.name), asc(farms.id));
}

/**
 * The id and the name of the farm of the machine `sprinklerId` names (a column of another
 * module's query), null for a machine on no farm: expressions for that query's select and order.
 */
export function farmColumnsOfMachine(sprinklerId: SQLWrapper): { id: SQL<number | null>; name: SQL<string | null> } {
  const of = sql`from ${farmMachines} where ${farmMachines.sprinklerId} = ${sprinklerId}`;
  return {
    id: sql<number | null>`(select ${farmMachines.farmId} ${of})`,
    name: sql<
      string | null
    >`(select ${farms.name} from ${farms} where ${farms.id} = (select ${farmMachines.farmId} ${of}))`,
  };
}

/** The user's role in the farm; null when they are no member. */
export async function findRole(db: Queryable, farmId: number, userId: number): Promise<FarmRole | null> {
  const [row] = await db
    .select({ role: farmMembers.role })
    .from(farmMembers)
    .where(and(eq(farmMembers.farmId, farmId), eq(farmMembers.userId, userId)));
  return row?.role ?? null;
}

/** Sets whether the farm requires two-step sign-in of its members; the farm, undefined when there is none. */
export async function updateSecondFactorRequired(
  db: Queryable,
  id: number,
  required: boolean,
): Promise<FarmRow | undefined> {
  const [row] = await db.update(farms).set({ requireSecondFactor: required }).where(eq(farms.id, id)).returning();
  return row;
}

/**
 * Whether a farm the user (a column or a value) belongs to requires two-step sign-in, as an
 * expression of another module's query: the session's user is read with it on every request.
 */
export function secondFactorRequiredBy(userId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${farmMembers} join ${farms} on ${farms.id} = ${farmMembers.farmId}
    where ${farmMembers.userId} = ${userId} and ${farms.requireSecondFactor})`;
}

/** The farm's members and their roles, in the order they joined. */
export function listMembers(db: Queryable, farmId: number): Promise<{ userId: number; role: FarmRole }[]> {
  return db
    .select({ userId: farmMembers.userId, role: farmMembers.role })
    .from(farmMembers)
    .where(eq(farmMembers.farmId, farmId))
    .orderBy(asc(farmMembers.addedAt), asc(farmMembers.userId));
}

/** Adds a member; false when they were one already (their role is left as it was). */
export async function insertMember(db: Queryable, farmId: number, userId: number, role: FarmRole): Promise<boolean> {
  const rows = await db
    .insert(farmMembers)
    .values({ farmId, userId, role })
    .onConflictDoNothing()
    .returning({ userId: farmMembers.userId });
  return rows.length > 0;
}

export async function updateRole(db: Queryable, farmId: number, userId: number, role: FarmRole): Promise<void> {
  await db
    .update(farmMembers)
    .set({ role })
    .where(and(eq(farmMembers.farmId, farmId), eq(farmMembers.userId, userId)));
}

export async function deleteMember(db: Queryable, farmId: number, userId: number): Promise<void> {
  await db.delete(farmMembers).where(and(eq(farmMembers.farmId, farmId), eq(farmMembers.userId, userId)));
}

/**
 * How many owners the farm has, its rows locked: two owners stepping down at once both wait
 * for the count, so one of them is refused and the farm keeps an owner.
 */
export async function countOwnersLocked(db: Queryable, farmId: number): Promise<number> {
  const rows = await db
    .select({ userId: farmMembers.userId })
    .from(farmMembers)
    .where(and(eq(farmMembers.farmId, farmId), eq(farmMembers.role, 'owner')))
    .for('update');
  return rows.length;
}

/** The farm the machine belongs to; null for one not placed in a farm. */
/** The farm of each of the machines placed in one, by machine id, in one statement. */
export async function findFarmsOfMachines(
  db: Queryable,
  sprinklerIds: number[],
): Promise<Map<number, { id: number; name: string }>> {
  if (sprinklerIds.length === 0) return new Map();
  const rows = await db
    .select({ sprinklerId: farmMachines.sprinklerId, id: farms.id, name: farms.name })
    .from(farmMachines)
    .innerJoin(farms, eq(farms.id, farmMachines.farmId))
    .where(inArray(farmMachines.sprinklerId, sprinklerIds));
  return new Map(rows.map(({ sprinklerId, id, name }) => [sprinklerId, { id, name }]));
}

export async function findFarmOfMachine(db: Queryable, sprinklerId: number): Promise<FarmRow | null> {
  const [row] = await db
    .select({
      id: farms.id,
      name: farms.name,
      requireSecondFactor: farms.requireSecondFactor,
      createdAt: farms.createdAt,
    })
    .from(farmMachines)
    .innerJoin(farms, eq(farms.id, farmMachines.farmId))
    .where(eq(farmMachines.sprinklerId, sprinklerId));
  return row ?? null;
}

/** Places the machine in the farm, or moves it there. */
export async function placeMachine(db: Queryable, sprinklerId: number, farmId: number): Promise<void> {
  await db
    .insert(farmMachines)
    .values({ sprinklerId, farmId })
    .onConflictDoUpdate({ target: farmMachines.sprinklerId, set: { farmId } });
}

/** The ids of the farm's machines. */
export async function listMachineIdsOfFarm(db: Queryable, farmId: number): Promise<number[]> {
  const rows = await db
    .select({ sprinklerId: farmMachines.sprinklerId })
    .from(farmMachines)
    .where(eq(farmMachines.farmId, farmId));
  return rows.map((row) => row.sprinklerId);
}

/** The farms the user runs (as an owner or a manager), as a subquery of their ids. */
export function farmIdsManagedBy(db: Queryable, userId: number | Placeholder) {
  return db
    .select({ farmId: farmMembers.farmId })
    .from(farmMembers)
    .where(and(eq(farmMembers.userId, userId), inArray(farmMembers.role, [...MANAGING_ROLES])));
}

/** Every grant of the farm's machines. */
export function grantsInFarm(
  db: Queryable,
  farmId: number,
): Promise<{ userId: number; sprinklerId: number; level: AccessLevel }[]> {
  return db
    .select({ userId: sprinklerAccess.userId, sprinklerId: sprinklerAccess.sprinklerId, level: sprinklerAccess.level })
    .from(sprinklerAccess)
    .innerJoin(farmMachines, eq(farmMachines.sprinklerId, sprinklerAccess.sprinklerId))
    .where(eq(farmMachines.farmId, farmId));
}

/** Ends the user's grants of the farm's machines. */
export async function deleteGrantsInFarm(db: Queryable, farmId: number, userId: number): Promise<void> {
  await db
    .delete(sprinklerAccess)
    .where(
      and(
        eq(sprinklerAccess.userId, userId),
        inArray(
          sprinklerAccess.sprinklerId,
          db.select({ id: farmMachines.sprinklerId }).from(farmMachines).where(eq(farmMachines.farmId, farmId)),
        ),
      ),
    );
}

/** Ends the machine's grants of people who are no members of its farm (after a move). */
export async function deleteGrantsOutsideFarm(db: Queryable, sprinklerId: number, farmId: number): Promise<void> {
  await db
    .delete(sprinklerAccess)
    .where(
      and(
        eq(sprinklerAccess.sprinklerId, sprinklerId),
        notInArray(
          sprinklerAccess.userId,
          db.select({ id: farmMembers.userId }).from(farmMembers).where(eq(farmMembers.farmId, farmId)),
        ),
      ),
    );
}
