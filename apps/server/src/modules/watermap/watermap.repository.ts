import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { waterCells, waterProgress } from './watermap.table';

export type WaterCellRow = typeof waterCells.$inferInsert;

/** How far a machine's telemetry has been counted; a machine never counted starts from its first report. */
export async function waterProgressOf(db: Queryable, machineId: string): Promise<Date> {
  const [row] = await db.select().from(waterProgress).where(eq(waterProgress.machineId, machineId));
  return row?.processedUntil ?? new Date(0);
}

/**
 * Takes a machine's accounting for this transaction and tells how far it had got; undefined
 * when another server instance holds it.
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

/**
 * Adds water to cells in one statement: running sums element by element into each month's row,
 * creating rows as needed. Each column travels as one array parameter that unnest turns back
 * into rows, the days of all rows (as many each) as one flat array: a multi-row VALUES list has
 * 6 parameters a row for drizzle and the driver to handle one by one, and took twice as long.
 * On PGlite the statement runs on the event loop's thread: callers keep to a few dozen rows.
 */
export async function addWater(db: Queryable, rows: WaterCellRow[]): Promise<void> {
  if (rows.length === 0) return;
  const daysPerRow = rows[0]!.days.length;
  const column = (value: (row: WaterCellRow) => unknown) => sql.param(rows.map(value));
  const days = sql.param(rows.flatMap((row) => row.days));
  await db.execute(sql`
    insert into ${waterCells} (machine_id, month, x, y, days, total)
    select cell.machine_id, cell.month, cell.x, cell.y,
      (${days}::float8[])[(cell.row - 1) * ${daysPerRow}::int + 1 : cell.row * ${daysPerRow}::int], cell.total
    from unnest(
      ${column((row) => row.machineId)}::text[],
      ${column((row) => row.month)}::date[],
      ${column((row) => row.x)}::int[],
      ${column((row) => row.y)}::int[],
      ${column((row) => row.total)}::float8[]
    ) with ordinality as cell(machine_id, month, x, y, total, row)
    on conflict (machine_id, month, x, y) do update set
      days = (select array_agg(coalesce(old, 0) + coalesce(new, 0) order by day)
              from unnest(${waterCells.days}, excluded.days) with ordinality as sums(old, new, day)),
      total = ${waterCells.total} + excluded.total`);
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
