import type { SprinklerAdminListQuery } from '@pivot/contracts';
import { type SQL, and, asc, count, desc, eq, ilike, inArray, notExists, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { users } from '../users/users.table';
import { sprinklerAccess, sprinklers } from './sprinklers.table';

export type SprinklerRow = typeof sprinklers.$inferSelect;
export type NewSprinklerRow = typeof sprinklers.$inferInsert;

export async function findSprinkler(db: Queryable, id: number): Promise<SprinklerRow | undefined> {
  const [row] = await db.select().from(sprinklers).where(eq(sprinklers.id, id));
  return row;
}

export async function findSprinklerByInternalId(db: Queryable, internalId: string): Promise<SprinklerRow | undefined> {
  const [row] = await db.select().from(sprinklers).where(eq(sprinklers.internalId, internalId));
  return row;
}

/** A machine the user may use: every machine for administrators, a granted one for others. */
export async function findAccessibleSprinkler(
  db: Queryable,
  user: { id: number; admin: boolean },
  id: number,
): Promise<SprinklerRow | undefined> {
  if (user.admin) return findSprinkler(db, id);
  const [row] = await db
    .select({ sprinkler: sprinklers })
    .from(sprinklers)
    .innerJoin(sprinklerAccess, eq(sprinklerAccess.sprinklerId, sprinklers.id))
    .where(and(eq(sprinklers.id, id), eq(sprinklerAccess.userId, user.id)));
  return row?.sprinkler;
}

export async function listAccessibleSprinklers(
  db: Queryable,
  user: { id: number; admin: boolean },
): Promise<SprinklerRow[]> {
  if (user.admin) return db.select().from(sprinklers).orderBy(asc(sprinklers.name), asc(sprinklers.id));
  const rows = await db
    .select({ sprinkler: sprinklers })
    .from(sprinklers)
    .innerJoin(sprinklerAccess, eq(sprinklerAccess.sprinklerId, sprinklers.id))
    .where(eq(sprinklerAccess.userId, user.id))
    .orderBy(asc(sprinklers.name), asc(sprinklers.id));
  return rows.map((row) => row.sprinkler);
}

export async function insertSprinkler(db: Queryable, values: NewSprinklerRow): Promise<SprinklerRow> {
  try {
    const [row] = await db.insert(sprinklers).values(values).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('sprinkler_exists');
    throw error;
  }
}

export async function updateSprinkler(
  db: Queryable,
  id: number,
  values: Partial<NewSprinklerRow>,
): Promise<SprinklerRow | undefined> {
  if (Object.values(values).every((value) => value === undefined)) return findSprinkler(db, id);
  const [row] = await db.update(sprinklers).set(values).where(eq(sprinklers.id, id)).returning();
  return row;
}

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

/** The users granted each of the given machines, in one query. */
export async function usersGrantedTo(db: Queryable, sprinklerIds: number[]) {
  const byMachine = new Map<number, (typeof users.$inferSelect)[]>(sprinklerIds.map((id) => [id, []]));
  if (sprinklerIds.length === 0) return byMachine;
  const rows = await db
    .select({ sprinklerId: sprinklerAccess.sprinklerId, user: users })
    .from(sprinklerAccess)
    .innerJoin(users, eq(users.id, sprinklerAccess.userId))
    .where(inArray(sprinklerAccess.sprinklerId, sprinklerIds))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  for (const row of rows) byMachine.get(row.sprinklerId)?.push(row.user);
  return byMachine;
}

/** The machines granted to each of the given users, in one query. */
export async function sprinklersGrantedTo(db: Queryable, userIds: number[]): Promise<Map<number, SprinklerRow[]>> {
  const byUser = new Map<number, SprinklerRow[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: sprinklerAccess.userId, sprinkler: sprinklers })
    .from(sprinklerAccess)
    .innerJoin(sprinklers, eq(sprinklers.id, sprinklerAccess.sprinklerId))
    .where(inArray(sprinklerAccess.userId, userIds))
    .orderBy(asc(sprinklers.name), asc(sprinklers.id));
  for (const row of rows) byUser.get(row.userId)?.push(row.sprinkler);
  return byUser;
}

const SORT_COLUMNS = {
  id: sprinklers.id,
  internalId: sprinklers.internalId,
  name: sprinklers.name,
} as const;

export async function listSprinklersForAdmin(
  db: Queryable,
  query: SprinklerAdminListQuery,
): Promise<{ count: number; rows: SprinklerRow[] }> {
  const conditions: SQL[] = [];
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    conditions.push(or(ilike(sprinklers.name, pattern), ilike(sprinklers.internalId, pattern))!);
  }
  if (query.exclude !== undefined) {
    const granted = db
      .select({ one: sql`1` })
      .from(sprinklerAccess)
      .where(and(eq(sprinklerAccess.sprinklerId, sprinklers.id), eq(sprinklerAccess.userId, query.exclude)));
    conditions.push(notExists(granted));
  }
  const where = and(...conditions);
  const direction = query.order === 'desc' ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(sprinklers)
      .where(where)
      .orderBy(direction(SORT_COLUMNS[query.sort]), direction(sprinklers.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(sprinklers).where(where),
  ]);
  return { count: total?.value ?? 0, rows };
}

/** The broker IDs of every added machine. */
export async function listMachineIds(db: Queryable): Promise<string[]> {
  const rows = await db.select({ internalId: sprinklers.internalId }).from(sprinklers).orderBy(asc(sprinklers.id));
  return rows.map((row) => row.internalId);
}
