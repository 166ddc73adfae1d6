import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Queryable } from '../../src/db/client';
import { StoredWaterYears } from '../../src/modules/watermap/stored-water-years';
import { runningSumsChanged } from '../../src/modules/watermap/watermap.repository';
import { migrationsBefore, migrationsFolder } from '../support/migrations';
import { unmigratedPglite } from '../support/embedded-databases';

/** A month of daily amounts: mm on the given days of the month (1–31), none on the others. */
function month(amounts: Record<number, number>): number[] {
  return Array.from({ length: 31 }, (_, index) => amounts[index + 1] ?? 0);
}

describe('the migrations of the water grid', () => {
  /**
   * A database of the test's own, closed when it ends: a test that timed out and still runs
   * must not migrate or write into the next test's.
   */
  function ownDatabase() {
    const client = unmigratedPglite();
    onTestFinished(() => client.close());
    const db = drizzle(client, { casing: 'snake_case' });
    return {
      db,
      migrateUpTo: async (tag: string) => {
        const older = await migrationsBefore(tag);
        await migrate(db, { migrationsFolder: older });
        await rm(older, { recursive: true, force: true });
      },
      /** A month row as the grid kept them before it kept years. */
      storeMonth: async (cell: { x: number; y: number; month: string }, days: number[]) => {
        const total = days.at(-1)!;
        await db.execute(sql`insert into water_cells (machine_id, month, x, y, days, total)
          values ('P1', ${cell.month}, ${cell.x}, ${cell.y}, ${sql.param(days)}::float8[], ${total})`);
      },
    };
  }

  it('turns the water stored per day into running sums, keeping every month total', async () => {
    const { db, migrateUpTo } = ownDatabase();
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
    const { db, migrateUpTo, storeMonth } = ownDatabase();
    await migrateUpTo('0009_water_cell_years');
    const runningSums = (amounts: number[]) =>
      amounts.map((_, day) => amounts.slice(0, day + 1).reduce((a, b) => a + b));
    // February (28 days in 2026): the last three elements repeat the month's total.
    await storeMonth({ x: 3, y: -2, month: '2026-02-01' }, runningSums(month({ 1: 1, 28: 2 })));
    // No row for March: the cell got no water then.
    await storeMonth({ x: 3, y: -2, month: '2026-04-01' }, runningSums(month({ 30: 4 })));
    await storeMonth({ x: 3, y: -2, month: '2025-12-01' }, runningSums(month({ 31: 8 })));
    await storeMonth({ x: 0, y: 5, month: '2026-01-01' }, runningSums(month({ 2: 16 })));

    await migrateUpTo('0035_water_grid_days_and_mm');

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

  it('turns running sums of every day into the days with water and their mm, for every reader alike', async () => {
    const { db, migrateUpTo } = ownDatabase();
    await migrateUpTo('0035_water_grid_days_and_mm');
    /** A year row as the grid kept them before: running sums by day of year up to the last written. */
    const storeYear = (
      cell: { year: number; x: number; revision: number },
      amounts: Record<number, number>,
      last: number,
    ) => {
      const sums = Array.from({ length: last }, (_, index) =>
        Object.entries(amounts).reduce((sum, [day, mm]) => (Number(day) <= index + 1 ? sum + mm : sum), 0),
      );
      return db.execute(sql`insert into water_cell_years (machine_id, year, x, y, days, revision)
        values ('P1', ${cell.year}, ${cell.x}, 0, ${sql.param(sums)}::float8[], ${cell.revision})`);
    };
    await storeYear({ year: 2026, x: 1, revision: 3 }, { 91: 1.25, 95: 0.1, 180: 12.3456 }, 180);
    // The last day written got no water (a round that wet the cell by nothing): its end still tells.
    await storeYear({ year: 2026, x: 2, revision: 5 }, { 100: 2 }, 130);
    await storeYear({ year: 2025, x: 1, revision: 1 }, { 365: 4 }, 365);

    await migrate(db, { migrationsFolder });

    const { rows } = await db.execute<{ year: number; x: number; days: number[]; mm: number[]; revision: number }>(
      sql`select year, x, days, mm, revision::int as revision from water_cell_years order by year, x`,
    );
    expect(rows).toEqual([
      { year: 2025, x: 1, days: [365], mm: [4], revision: 1 },
      // 4-byte floats, read back in the fewest digits that give the same float.
      { year: 2026, x: 1, days: [91, 95, 180], mm: [1.25, 0.1, 12.3456], revision: 3 },
      { year: 2026, x: 2, days: [100, 130], mm: [2, 0], revision: 5 },
    ]);
    const handle = db as unknown as Queryable;
    const year = await new StoredWaterYears(handle).year('P1', 2026);
    expect({ ...year, xs: [...year.xs], starts: [...year.starts], days: [...year.days], mm: [...year.mm] }).toEqual({
      revision: 5,
      xs: [1, 2],
      ys: new Int32Array([0, 0]),
      starts: [0, 3, 5],
      days: [91, 95, 180, 100, 130],
      mm: [1.25, Math.fround(0.1), Math.fround(12.3456), 2, 0],
    });
    const changed = await runningSumsChanged(handle, 'P1', {
      firstYear: 2026,
      lastYear: 2026,
      lowerYear: 2026,
      lower: 150,
      sinceRevision: 4,
    });
    // The cell's last water before the lower day: its sum through its last day alone.
    expect(changed).toEqual({ revision: 5, rows: [{ year: 2026, x: 2, y: 0, offset: 130, sums: [2] }] });
    // Every migration twice over on PGlite: a minute on a busy machine.
  }, 120_000);
});
