import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { waterCells, waterProgress } from './watermap.table';

export type WaterCellRow = typeof waterCells.$inferInsert;

/**
 * Takes a machine's accounting for this transaction; undefined when another server instance
 * holds it. A machine never accounted for starts from its first report.
 */
export async function claimWaterProgress(db: Queryable, machineId: string): Promise<Date | undefined> {
  await db
    .insert(waterProgress)
    .values({ machineId, processedUntil: new Date(0) })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(waterProgress)
    .where(eq(waterProgress.machineId, machineId))
    .for('update', { skipLocked: true });
  return row?.processedUntil;
}

export async function setWaterProgress(db: Queryable, machineId: string, processedUntil: Date): Promise<void> {
  await db.update(waterProgress).set({ processedUntil }).where(eq(waterProgress.machineId, machineId));
}

const UPSERT_CHUNK = 1000;

/** Adds water to cells: running sums element by element into each month's row, creating rows as needed. */
export async function addWater(db: Queryable, rows: WaterCellRow[]): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += UPSERT_CHUNK) {
    await db
      .insert(waterCells)
      .values(rows.slice(offset, offset + UPSERT_CHUNK))
      .onConflictDoUpdate({
        target: [waterCells.machineId, waterCells.month, waterCells.x, waterCells.y],
        set: {
          days: sql`(select array_agg(coalesce(old, 0) + coalesce(new, 0) order by day)
                     from unnest(${waterCells.days}, excluded.days) with ordinality as sums(old, new, day))`,
          total: sql`${waterCells.total} + excluded.total`,
        },
      });
  }
}

export type DayOfMonth = { month: string; day: number };

/** The water per cell over the local days from `start` to `stop`, both included. */
export async function waterPerCell(
  db: Queryable,
  machineId: string,
  start: DayOfMonth,
  stop: DayOfMonth,
): Promise<{ x: number; y: number; depth: number }[]> {
  const firstDay = sql`case when ${waterCells.month} = ${start.month} then ${start.day}::int else 1 end`;
  const lastDay = sql`case when ${waterCells.month} = ${stop.month} then ${stop.day}::int else 31 end`;
  const wholeMonth = sql`${waterCells.month} > ${start.month} and ${waterCells.month} < ${stop.month}`;
  // days[0] is null (arrays start at 1): a range from the 1st subtracts nothing.
  const depth = sql<number>`sum(case when ${wholeMonth} then ${waterCells.total}
      else ${waterCells.days}[${lastDay}] - coalesce(${waterCells.days}[(${firstDay}) - 1], 0) end)::float8`;
  const rows = await db
    .select({ x: waterCells.x, y: waterCells.y, depth })
    .from(waterCells)
    .where(
      and(eq(waterCells.machineId, machineId), gte(waterCells.month, start.month), lte(waterCells.month, stop.month)),
    )
    .groupBy(waterCells.x, waterCells.y);
  return rows.map((row) => ({ x: row.x, y: row.y, depth: Number(row.depth) }));
}
