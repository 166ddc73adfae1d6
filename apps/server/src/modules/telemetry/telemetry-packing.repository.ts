import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { telemetryDays } from './telemetry-packing.table';

/** What a packed day holds, without its bytes. */
export type PackedDayInfo = { day: string; reportCount: number; firstTs: Date; lastTs: Date };

/**
 * A machine's packed days holding any report from `from` up to `until` (both included), oldest
 * first, without their bytes.
 */
export async function packedDaysOverlapping(
  db: Queryable,
  machineId: string,
  from: Date,
  until: Date,
): Promise<PackedDayInfo[]> {
  return db
    .select({
      day: telemetryDays.day,
      reportCount: telemetryDays.reportCount,
      firstTs: telemetryDays.firstTs,
      lastTs: telemetryDays.lastTs,
    })
    .from(telemetryDays)
    .where(
      and(eq(telemetryDays.machineId, machineId), lte(telemetryDays.firstTs, until), gte(telemetryDays.lastTs, from)),
    )
    .orderBy(asc(telemetryDays.firstTs));
}

/** Which of the machines have a packed day overlapping their own range from `from` to `until`, in one query. */
export async function machinesWithPackedDays(
  db: Queryable,
  ranges: { machineId: string; from: Date }[],
  until: Date,
): Promise<Set<string>> {
  if (ranges.length === 0) return new Set();
  const answer = await db.execute(sql`
    select distinct machine.id as "machineId"
    from unnest(
      ${sql.param(ranges.map((range) => range.machineId))}::text[],
      ${sql.param(ranges.map((range) => range.from.toISOString()))}::timestamptz[]
    ) as machine(id, after)
    join ${telemetryDays} on ${telemetryDays.machineId} = machine.id
    where ${telemetryDays.lastTs} >= machine.after and ${telemetryDays.firstTs} <= ${until.toISOString()}::timestamptz`);
  const rows = (answer as unknown as { rows: { machineId: string }[] }).rows;
  return new Set(rows.map((row) => row.machineId));
}

export async function packedBytes(db: Queryable, machineId: string, day: string): Promise<Uint8Array | undefined> {
  const [row] = await db
    .select({ packed: telemetryDays.packed })
    .from(telemetryDays)
    .where(and(eq(telemetryDays.machineId, machineId), eq(telemetryDays.day, day)));
  return row?.packed;
}

export async function isPacked(db: Queryable, machineId: string, day: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(telemetryDays)
    .where(and(eq(telemetryDays.machineId, machineId), eq(telemetryDays.day, day)));
  return row !== undefined;
}

/** Stores a packed day unless that machine's day is packed already; true when this one was stored. */
export async function insertPackedDay(db: Queryable, row: typeof telemetryDays.$inferInsert): Promise<boolean> {
  const inserted = await db
    .insert(telemetryDays)
    .values(row)
    .onConflictDoNothing()
    .returning({ day: telemetryDays.day });
  return inserted.length === 1;
}

/** When the machine's first packed day that may hold a report from `from` to `before` (excluded) starts. */
export async function firstPackedDayStart(
  db: Queryable,
  machineId: string,
  from: Date,
  before: Date,
): Promise<Date | null> {
  const [row] = await db
    .select({ firstTs: telemetryDays.firstTs })
    .from(telemetryDays)
    .where(
      and(eq(telemetryDays.machineId, machineId), gte(telemetryDays.lastTs, from), lt(telemetryDays.firstTs, before)),
    )
    .orderBy(asc(telemetryDays.firstTs))
    .limit(1);
  return row?.firstTs ?? null;
}

/** A machine's packed day with its bytes, if packed. */
export async function packedDay(
  db: Queryable,
  machineId: string,
  day: string,
): Promise<typeof telemetryDays.$inferSelect | undefined> {
  const [row] = await db
    .select()
    .from(telemetryDays)
    .where(and(eq(telemetryDays.machineId, machineId), eq(telemetryDays.day, day)));
  return row;
}

/**
 * Replaces a packed day with one holding more reports, unless it changed since it was read
 * (another instance repacked it first); true when this one was stored.
 */
export async function replacePackedDay(
  db: Queryable,
  row: Required<Omit<typeof telemetryDays.$inferInsert, 'packedAt'>>,
  read: { reportCount: number; packedAt: Date },
): Promise<boolean> {
  const { machineId, day, ...values } = row;
  const updated = await db
    .update(telemetryDays)
    .set({ ...values, packedAt: new Date() })
    .where(
      and(
        eq(telemetryDays.machineId, machineId),
        eq(telemetryDays.day, day),
        eq(telemetryDays.reportCount, read.reportCount),
        eq(telemetryDays.packedAt, read.packedAt),
      ),
    )
    .returning({ day: telemetryDays.day });
  return updated.length === 1;
}
