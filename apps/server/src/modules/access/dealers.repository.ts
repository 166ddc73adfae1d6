import type { AccessLevel } from '@pivot/contracts';
import { type SQL, and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  dealerGrantMachines,
  dealerGrants,
  dealerMembers,
  dealers,
  farmMachines,
  farmMembers,
  farms,
} from './access.table';

/** A dealer's grant in force for its members: not expired, on the database's clock. */
export const DEALER_GRANT_IN_FORCE = and(
  eq(dealerGrants.dealerId, dealerMembers.dealerId),
  or(isNull(dealerGrants.expiresAt), gt(dealerGrants.expiresAt, sql`now()`)),
);

export type DealerRow = typeof dealers.$inferSelect;
export type DealerGrantRow = typeof dealerGrants.$inferSelect & { dealerName: string; machineIds: number[] };

/** The new dealer; null when a dealer has that name. */
export async function insertDealer(db: Queryable, name: string): Promise<DealerRow | null> {
  const rows = await db.insert(dealers).values({ name }).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export function listDealers(db: Queryable): Promise<DealerRow[]> {
  return db.select().from(dealers).orderBy(asc(dealers.name), asc(dealers.id));
}

export async function findDealer(db: Queryable, id: number): Promise<DealerRow | undefined> {
  const [row] = await db.select().from(dealers).where(eq(dealers.id, id));
  return row;
}

/** False when the user was a member already. */
export async function insertDealerMember(db: Queryable, dealerId: number, userId: number): Promise<boolean> {
  const rows = await db
    .insert(dealerMembers)
    .values({ dealerId, userId })
    .onConflictDoNothing()
    .returning({ userId: dealerMembers.userId });
  return rows.length > 0;
}

/** The ids of the dealer's members, in the order they were added. */
export async function listDealerMemberIds(db: Queryable, dealerId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: dealerMembers.userId })
    .from(dealerMembers)
    .where(eq(dealerMembers.dealerId, dealerId))
    .orderBy(asc(dealerMembers.addedAt), asc(dealerMembers.userId));
  return rows.map((row) => row.userId);
}

/** False when the user was no member of the dealer. */
export async function deleteDealerMember(db: Queryable, dealerId: number, userId: number): Promise<boolean> {
  const rows = await db
    .delete(dealerMembers)
    .where(and(eq(dealerMembers.dealerId, dealerId), eq(dealerMembers.userId, userId)))
    .returning({ userId: dealerMembers.userId });
  return rows.length > 0;
}

/** The dealers the user is a member of. */
export function listDealersOfUser(db: Queryable, userId: number): Promise<DealerRow[]> {
  return db
    .select({ id: dealers.id, name: dealers.name, createdAt: dealers.createdAt })
    .from(dealerMembers)
    .innerJoin(dealers, eq(dealers.id, dealerMembers.dealerId))
    .where(eq(dealerMembers.userId, userId))
    .orderBy(asc(dealers.name));
}

/**
 * Grants the dealer the farm's machines (all, or the given ones) at a level, until `expiresAt`
 * when given, or changes the grant it has; the grant's id.
 */
export async function saveDealerGrant(
  db: Queryable,
  grant: { farmId: number; dealerId: number; level: AccessLevel; machineIds: number[] | 'all'; expiresAt: Date | null },
): Promise<number> {
  const values = {
    farmId: grant.farmId,
    dealerId: grant.dealerId,
    level: grant.level,
    allMachines: grant.machineIds === 'all',
    expiresAt: grant.expiresAt,
  };
  const [row] = await db
    .insert(dealerGrants)
    .values(values)
    .onConflictDoUpdate({
      target: [dealerGrants.farmId, dealerGrants.dealerId],
      set: { level: values.level, allMachines: values.allMachines, expiresAt: values.expiresAt, grantedAt: sql`now()` },
    })
    .returning({ id: dealerGrants.id });
  await db.delete(dealerGrantMachines).where(eq(dealerGrantMachines.grantId, row!.id));
  if (grant.machineIds !== 'all' && grant.machineIds.length > 0) {
    await db
      .insert(dealerGrantMachines)
      .values(grant.machineIds.map((sprinklerId) => ({ grantId: row!.id, sprinklerId })));
  }
  return row!.id;
}

/** Ends the dealer's grant of the farm; false when it had none. */
export async function deleteDealerGrant(db: Queryable, farmId: number, dealerId: number): Promise<boolean> {
  const rows = await db
    .delete(dealerGrants)
    .where(and(eq(dealerGrants.farmId, farmId), eq(dealerGrants.dealerId, dealerId)))
    .returning({ id: dealerGrants.id });
  return rows.length > 0;
}

/** The farm's grants to dealers, expired ones too, with each dealer's name and the machines named. */
export async function listDealerGrantsOfFarm(db: Queryable, farmId: number): Promise<DealerGrantRow[]> {
  const rows = await db
    .select({ grant: dealerGrants, dealerName: dealers.name })
    .from(dealerGrants)
    .innerJoin(dealers, eq(dealers.id, dealerGrants.dealerId))
    .where(eq(dealerGrants.farmId, farmId))
    .orderBy(asc(dealers.name));
  const named =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(dealerGrantMachines)
          .where(
            inArray(
              dealerGrantMachines.grantId,
              rows.map((row) => row.grant.id),
            ),
          );
  return rows.map(({ grant, dealerName }) => ({
    ...grant,
    dealerName,
    machineIds: named.filter((machine) => machine.grantId === grant.id).map((machine) => machine.sprinklerId),
  }));
}

/**
 * The dealer through which the user acts on the machine, as an expression for the log's insert:
 * a dealer of theirs whose grant in force covers it, when the user is no member of the machine's
 * farm (a member acts as themselves); null otherwise.
 */
export function dealerActingOn(userId: number, sprinklerId: number): SQL<string | null> {
  return sql<string | null>`(select ${dealers.name} from ${dealerMembers}
    join ${dealers} on ${dealers.id} = ${dealerMembers.dealerId}
    join ${dealerGrants} on ${dealerGrants.dealerId} = ${dealerMembers.dealerId}
      and (${dealerGrants.expiresAt} is null or ${dealerGrants.expiresAt} > now())
    join ${farmMachines} on ${farmMachines.farmId} = ${dealerGrants.farmId}
    where ${dealerMembers.userId} = ${userId} and ${farmMachines.sprinklerId} = ${sprinklerId}
      and (${dealerGrants.allMachines} or exists (select 1 from ${dealerGrantMachines}
        where ${dealerGrantMachines.grantId} = ${dealerGrants.id} and ${dealerGrantMachines.sprinklerId} = ${sprinklerId}))
      and not exists (select 1 from ${farmMembers}
        where ${farmMembers.farmId} = ${farmMachines.farmId} and ${farmMembers.userId} = ${userId})
    order by ${dealers.name} limit 1)`;
}

/** A subquery of the ids of the farms whose grants in force reach the user through their dealers. */
export function farmIdsDealtTo(db: Queryable, userId: number) {
  return db
    .select({ farmId: dealerGrants.farmId })
    .from(dealerMembers)
    .innerJoin(dealerGrants, DEALER_GRANT_IN_FORCE)
    .where(eq(dealerMembers.userId, userId));
}

/**
 * The farms whose grants in force reach the user through their dealers, with the dealer, the
 * level and the machines each grant covers.
 */
export async function listFarmsDealtTo(
  db: Queryable,
  userId: number,
): Promise<
  {
    farmId: number;
    farmName: string;
    dealerName: string;
    level: AccessLevel;
    expiresAt: Date | null;
    machineIds: number[];
  }[]
> {
  const rows = await db
    .select({
      farmId: farms.id,
      farmName: farms.name,
      dealerName: dealers.name,
      level: dealerGrants.level,
      expiresAt: dealerGrants.expiresAt,
      allMachines: dealerGrants.allMachines,
      grantId: dealerGrants.id,
    })
    .from(dealerMembers)
    .innerJoin(dealers, eq(dealers.id, dealerMembers.dealerId))
    .innerJoin(dealerGrants, DEALER_GRANT_IN_FORCE)
    .innerJoin(farms, eq(farms.id, dealerGrants.farmId))
    .where(eq(dealerMembers.userId, userId))
    .orderBy(asc(farms.name), asc(dealers.name));
  if (rows.length === 0) return [];
  const farmIds = [...new Set(rows.map((row) => row.farmId))];
  const [machines, named] = await Promise.all([
    db.select().from(farmMachines).where(inArray(farmMachines.farmId, farmIds)),
    db
      .select()
      .from(dealerGrantMachines)
      .where(
        inArray(
          dealerGrantMachines.grantId,
          rows.map((row) => row.grantId),
        ),
      ),
  ]);
  return rows.map(({ grantId, allMachines, ...row }) => ({
    ...row,
    machineIds: allMachines
      ? machines.filter((machine) => machine.farmId === row.farmId).map((machine) => machine.sprinklerId)
      : named.filter((machine) => machine.grantId === grantId).map((machine) => machine.sprinklerId),
  }));
}
