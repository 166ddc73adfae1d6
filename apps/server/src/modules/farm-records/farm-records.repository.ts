import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type FarmRecordRow, type NewFarmRecordRow, farmRecords } from './farm-records.table';

export type FarmRecordValues = Omit<NewFarmRecordRow, 'id' | 'sprinklerId' | 'createdAt' | 'updatedAt'>;

/** A machine's records, the newest day first (and, within a day, the last made first). */
export async function listFarmRecords(db: Queryable, sprinklerId: number): Promise<FarmRecordRow[]> {
  return db
    .select()
    .from(farmRecords)
    .where(eq(farmRecords.sprinklerId, sprinklerId))
    .orderBy(desc(farmRecords.day), desc(farmRecords.id));
}

export async function findFarmRecord(
  db: Queryable,
  sprinklerId: number,
  recordId: number,
): Promise<FarmRecordRow | undefined> {
  const [row] = await db
    .select()
    .from(farmRecords)
    .where(and(eq(farmRecords.sprinklerId, sprinklerId), eq(farmRecords.id, recordId)));
  return row;
}

/** The records of a machine's days `first` through `last` (ISO dates), oldest first: what a balance reads. */
export async function farmRecordsOfDays(
  db: Queryable,
  sprinklerId: number,
  first: string,
  last: string,
): Promise<FarmRecordRow[]> {
  return db
    .select()
    .from(farmRecords)
    .where(and(eq(farmRecords.sprinklerId, sprinklerId), gte(farmRecords.day, first), lte(farmRecords.day, last)))
    .orderBy(asc(farmRecords.day), asc(farmRecords.id));
}

export async function insertFarmRecord(db: Queryable, sprinklerId: number, values: FarmRecordValues): Promise<number> {
  const [row] = await db
    .insert(farmRecords)
    .values({ ...values, sprinklerId })
    .returning({ id: farmRecords.id });
  return row!.id;
}

export async function updateFarmRecord(db: Queryable, recordId: number, values: FarmRecordValues): Promise<void> {
  await db
    .update(farmRecords)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(farmRecords.id, recordId));
}

export async function deleteFarmRecord(db: Queryable, recordId: number): Promise<void> {
  await db.delete(farmRecords).where(eq(farmRecords.id, recordId));
}
