import type { UserListQuery } from '@pivot/contracts';
import {
  type SQL,
  type SQLWrapper,
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { type NewUserRow, type UserRow, users } from './users.table';

export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** The given users, by last name, first name and id. */
export async function findUsersByIds(db: Queryable, ids: number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(inArray(users.id, ids))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row;
}

/** Inserts a user; a taken email is the email_taken error. */
export async function insertUser(db: Queryable, values: NewUserRow): Promise<UserRow> {
  try {
    const [row] = await db.insert(users).values(values).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('email_taken');
    throw error;
  }
}

/** Inserts a user unless the email is taken; true when it was inserted. */
export async function insertUserIfAbsent(db: Queryable, values: NewUserRow): Promise<boolean> {
  const rows = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Changes the given columns; columns left undefined keep their value. */
export async function updateUser(db: Queryable, id: number, values: Partial<NewUserRow>): Promise<UserRow | undefined> {
  if (Object.values(values).every((value) => value === undefined)) return findUserById(db, id);
  try {
    const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('email_taken');
    throw error;
  }
}

export async function deleteUser(db: Queryable, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

export async function countAdmins(db: Queryable): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users).where(eq(users.admin, true));
  return row?.value ?? 0;
}

/**
 * Serialises changes that could remove the last administrator: two administrators deleting
 * each other at once must not both succeed.
 */
export async function lockAdministrators(db: Queryable): Promise<void> {
  await db.execute(sql`select ${users.id} from ${users} where ${users.admin} for update`);
}

const SORT_COLUMNS = {
  id: users.id,
  first_name: users.firstName,
  last_name: users.lastName,
  email: users.email,
  company_name: users.company,
  admin: users.admin,
  subscription: users.subscriptionExpiryDate,
} as const;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export async function listUsers(
  db: Queryable,
  query: UserListQuery,
  excluding?: SQLWrapper,
): Promise<{ count: number; rows: UserRow[] }> {
  const conditions: SQL[] = [];
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    conditions.push(
      or(
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(users.email, pattern),
        ilike(users.company, pattern),
        ilike(users.phone, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      )!,
    );
  }
  if (excluding) conditions.push(notInArray(users.id, excluding));
  const where = and(...conditions);
  const direction = query.order === 'desc' ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(direction(SORT_COLUMNS[query.sort]), direction(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(users).where(where),
  ]);
  return { count: total?.value ?? 0, rows };
}

export async function findFirstAdmin(db: Queryable): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.admin, true)).orderBy(asc(users.id)).limit(1);
  return row;
}

/** The ids of the administrators who have activated their accounts. */
export async function findActiveAdminIds(db: Queryable): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.admin, true), isNotNull(users.activatedAt)));
  return rows.map((row) => row.id);
}
