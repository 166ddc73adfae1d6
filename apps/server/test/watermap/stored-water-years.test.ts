import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { dayOfYear } from '../../src/modules/watermap/day-of-year';
import { StoredWaterYears } from '../../src/modules/watermap/stored-water-years';
import { addWater } from '../../src/modules/watermap/watermap.repository';
import { createTestDatabase } from '../support/database';

/** The day of the year of a date written yyyy-mm-dd. */
function day(date: string) {
  return dayOfYear(new Date(`${date}T00:00:00Z`));
}

describe('the water grid of a cell over a year, as read', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const cell = (mm: number) => [{ x: 4, y: -7, mm }];
    // In the order the accounting may write them: a day later than the ones before, the same
    // day again, then an earlier day (a month row the migration converted ends on its month's
    // last day, while the accounting may still be counting an earlier one).
    await addWater(db, 'P1', day('2026-03-10'), cell(1));
    await addWater(db, 'P1', day('2026-05-31'), cell(2));
    await addWater(db, 'P1', day('2026-05-31'), cell(4));
    await addWater(db, 'P1', day('2026-04-15'), cell(8));
    await addWater(db, 'P1', day('2025-12-31'), cell(16));
    await addWater(db, 'P1', day('2026-01-01'), cell(32));
    await addWater(db, 'P1', day('2025-12-31'), [{ x: 0, y: 1, mm: 64 }]);
  });
  afterAll(() => database.close());

  /** Each cell's water from `start` to `stop` (yyyy-mm-dd) as a fresh reader adds it up. */
  async function water(start: string, stop: string, machineId = 'P1', years = new StoredWaterYears(database.db)) {
    const cells = new Map<string, { x: number; y: number; depth: number }>();
    await years.eachDayWithWater(
      machineId,
      new Date(`${start}T00:00:00Z`),
      new Date(`${stop}T00:00:00Z`),
      (x, y, _dayIndex, mm) => {
        const cell = cells.get(`${x}:${y}`) ?? { x, y, depth: 0 };
        cell.depth += mm;
        cells.set(`${x}:${y}`, cell);
      },
    );
    return [...cells.values()].sort((a, b) => a.x - b.x);
  }

  it('adds up the days of any range, cutting months and days where it starts and stops', async () => {
    expect(await water('2026-03-10', '2026-03-10')).toEqual([{ x: 4, y: -7, depth: 1 }]);
    expect(await water('2026-03-11', '2026-04-14')).toEqual([]);
    expect(await water('2026-03-01', '2026-04-30')).toEqual([{ x: 4, y: -7, depth: 9 }]);
    expect(await water('2026-04-16', '2026-05-31')).toEqual([{ x: 4, y: -7, depth: 6 }]);
    expect(await water('2026-02-01', '2026-12-31')).toEqual([{ x: 4, y: -7, depth: 15 }]);
    // After the cell's last day with water: nothing more.
    expect(await water('2026-06-01', '2026-12-31')).toEqual([]);
  });

  it('adds up a range across New Year from the rows of both years', async () => {
    expect(await water('2025-12-31', '2026-03-10')).toEqual([
      { x: 0, y: 1, depth: 64 },
      { x: 4, y: -7, depth: 16 + 32 + 1 },
    ]);
    expect(await water('2025-12-31', '2025-12-31')).toEqual([
      { x: 0, y: 1, depth: 64 },
      { x: 4, y: -7, depth: 16 },
    ]);
  });

  it('counts 29 February in a leap year as a day of its own', async () => {
    await addWater(database.db, 'P2', day('2028-02-29'), [{ x: 0, y: 0, mm: 1 }]);
    await addWater(database.db, 'P2', day('2028-03-01'), [{ x: 0, y: 0, mm: 2 }]);
    expect(await water('2028-02-29', '2028-02-29', 'P2')).toEqual([{ x: 0, y: 0, depth: 1 }]);
    expect(await water('2028-03-01', '2028-12-31', 'P2')).toEqual([{ x: 0, y: 0, depth: 2 }]);
  });

  it('reads what was written since it last read, by any writer, and forgets the years it cannot hold', async () => {
    const years = new StoredWaterYears(database.db, 6);
    /** A change that leaves the machine's water revision as it was: what only a whole read sees. */
    const changeUnseen = (x: number, mm: number) =>
      database.db.execute(
        sql`update water_cell_years set mm = array[${mm}]::real[] where machine_id = 'P3' and x = ${x} and cardinality(mm) = 1`,
      );
    await addWater(database.db, 'P3', day('2026-06-01'), [
      { x: 0, y: 0, mm: 1 },
      { x: 1, y: 0, mm: 2 },
    ]);
    expect(await water('2026-01-01', '2026-12-31', 'P3', years)).toEqual([
      { x: 0, y: 0, depth: 1 },
      { x: 1, y: 0, depth: 2 },
    ]);
    const kept = await years.year('P3', 2026);
    // Kept: read again, only the rows of a higher revision are asked for.
    await changeUnseen(0, 100);
    expect(await years.year('P3', 2026)).toEqual(kept);
    // Written as another server instance would: a day added to one cell, a new cell.
    await addWater(database.db, 'P3', day('2026-06-02'), [
      { x: 1, y: 0, mm: 4 },
      { x: 2, y: 0, mm: 8 },
    ]);
    expect(await water('2026-01-01', '2026-12-31', 'P3', years)).toEqual([
      { x: 0, y: 0, depth: 1 },
      { x: 1, y: 0, depth: 6 },
      { x: 2, y: 0, depth: 8 },
    ]);
    const changed = await years.year('P3', 2026);
    expect(changed.revision).toBeGreaterThan(kept.revision);
    expect([...changed.days]).toEqual([152, 152, 153, 153]);
    // Another machine's four days and these four are more than it may hold: this year, the least
    // recently read, is forgotten, and read whole again.
    expect(await water('2026-01-01', '2026-12-31', 'P1', years)).toEqual([{ x: 4, y: -7, depth: 32 + 1 + 8 + 6 }]);
    expect(await water('2026-01-01', '2026-12-31', 'P3', years)).toEqual([
      { x: 0, y: 0, depth: 100 },
      { x: 1, y: 0, depth: 6 },
      { x: 2, y: 0, depth: 8 },
    ]);
  });
});
