import { rm } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationsBefore, migrationsFolder } from '../support/migrations';

/** A month of daily amounts: mm on the given days of the month (1–31), none on the others. */
function month(amounts: Record<number, number>): number[] {
  return Array.from({ length: 31 }, (_, index) => amounts[index + 1] ?? 0);
}

describe('the migrations of the water grid', () => {
  let client: PGlite;
  let db: ReturnType<typeof drizzle>;
  beforeEach(() => {
    client = new PGlite();
    db = drizzle(client, { casing: 'snake_case' });
  });
  afterEach(() => client.close());

  async function migrateUpTo(tag: string): Promise<void> {
    const older = await migrationsBefore(tag);
    await migrate(db, { migrationsFolder: older });
    await rm(older, { recursive: true, force: true });
  }

  /** A month row as the grid kept them before it kept years. */
  async function storeMonth(cell: { x: number; y: number; month: string }, days: number[]): Promise<void> {
    const total = days.at(-1)!;
    await db.execute(sql`insert into water_cells (machine_id, month, x, y, days, total)
      values ('P1', ${cell.month}, ${cell.x}, ${cell.y}, ${sql.param(days)}::float8[], ${total})`);
  }

  it('turns the water stored per day into running sums, keeping every month total', async () => {
    await migrateUpTo('0001_water_running_sums');
    const perDay = month({ 1: 1.5, 10: 2, 31: 0.5 });
    await db.execute(sql`insert into water_cells (machine_id, month, x, y, days, total)
      values ('P1', '2026-05-01', 3, -2, ${sql.param(perDay)}::float8[], 4)`);

    await migrateUpTo('0002_log_reads');

    const { rows } = await db.execute<{ days: number[]; total: number }>(sql`select days, total from water_cells`);
    expect(rows[0]!.days.slice(0, 10)).toEqual([1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 3.5]);
    expect(rows[0]!.days[29]).toBe(3.5);
    expect(rows[0]!.days[30]).toBe(4);
    expect(rows[0]!.total).toBe(4);
  });

  it('turns month rows into a row per cell and year holding running sums by day of year, losing no water', async () => {
    await migrateUpTo('0009_water_cell_years');
    const runningSums = (amounts: number[]) =>
      amounts.map((_, day) => amounts.slice(0, day + 1).reduce((a, b) => a + b));
    // February (28 days in 2026): the last three elements repeat the month's total.
    await storeMonth({ x: 3, y: -2, month: '2026-02-01' }, runningSums(month({ 1: 1, 28: 2 })));
    // No row for March: the cell got no water then.
    await storeMonth({ x: 3, y: -2, month: '2026-04-01' }, runningSums(month({ 30: 4 })));
    await storeMonth({ x: 3, y: -2, month: '2025-12-01' }, runningSums(month({ 31: 8 })));
    await storeMonth({ x: 0, y: 5, month: '2026-01-01' }, runningSums(month({ 2: 16 })));

    await migrate(db, { migrationsFolder });

    const { rows } = await db.execute<{ year: number; x: number; y: number; days: number[] }>(
      sql`select year, x, y, days from water_cell_years order by year, x`,
    );
    expect(rows.map(({ year, x, y }) => ({ year, x, y }))).toEqual([
      { year: 2025, x: 3, y: -2 },
      { year: 2026, x: 0, y: 5 },
      { year: 2026, x: 3, y: -2 },
    ]);
    const [december, january, season] = rows.map((row) => row.days);
    // To the end of the last month a cell has a row for: 31 December is day 365, 30 April day 120.
    expect(december).toHaveLength(365);
    expect(december!.slice(-2)).toEqual([0, 8]);
    expect(january).toHaveLength(31);
    expect(january!.slice(0, 3)).toEqual([0, 16, 16]);
    expect(season).toHaveLength(120);
    expect(season![31]).toBe(1); // 1 February
    expect(season![58]).toBe(3); // 28 February
    expect(season![118]).toBe(3); // 29 April
    expect(season![119]).toBe(7); // 30 April
    const { rows: tables } = await db.execute(sql`select 1 from pg_tables where tablename = 'water_cells'`);
    expect(tables).toHaveLength(0);
  });
});
