import type { ProgramBody } from '@pivot/contracts';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { type ProgramRow, programs } from './programs.table';

export async function listPrograms(db: Queryable, sprinklerId: number): Promise<ProgramRow[]> {
  return db.select().from(programs).where(eq(programs.sprinklerId, sprinklerId)).orderBy(asc(programs.id));
}

export async function findProgram(
  db: Queryable,
  sprinklerId: number,
  programId: number,
): Promise<ProgramRow | undefined> {
  const [row] = await db
    .select()
    .from(programs)
    .where(and(eq(programs.sprinklerId, sprinklerId), eq(programs.id, programId)));
  return row;
}

export async function countPrograms(db: Queryable, sprinklerId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(programs).where(eq(programs.sprinklerId, sprinklerId));
  return row?.value ?? 0;
}

/** Serialises program changes of one machine, so that the limit holds under concurrent requests. */
export async function lockProgramsOf(db: Queryable, sprinklerId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${PROGRAMS_LOCK_SPACE}, ${sprinklerId})`);
}
const PROGRAMS_LOCK_SPACE = 7311;

export async function insertProgram(db: Queryable, sprinklerId: number, body: ProgramBody): Promise<ProgramRow> {
  try {
    const [row] = await db
      .insert(programs)
      .values({ sprinklerId, name: body.name, programData: body.programData })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('program_name_taken');
    throw error;
  }
}

export async function updateProgram(db: Queryable, programId: number, body: ProgramBody): Promise<ProgramRow> {
  try {
    const [row] = await db
      .update(programs)
      .set({ name: body.name, programData: body.programData, updatedAt: sql`now()` })
      .where(eq(programs.id, programId))
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('program_name_taken');
    throw error;
  }
}

export async function deleteProgram(db: Queryable, programId: number): Promise<void> {
  await db.delete(programs).where(eq(programs.id, programId));
}
