import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { dayOfYear } from '../../src/modules/watermap/day-of-year';
import { addWater, waterPerCell } from '../../src/modules/watermap/watermap.repository';
import { createTestDatabase } from '../support/database';

/** The day of the year of a date written yyyy-mm-dd. */
function day(date: string) {
  return dayOfYear(new Date(`${date}T00:00:00Z`));
}

describe('the water grid of a cell over a year', () => {
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

  async function water(start: string, stop: string) {
    return waterPerCell(database.db, 'P1', day(start), day(stop));
  }

  it('adds up the days of any range, cutting months and days where it starts and stops', async () => {
    expect(await water('2026-03-10', '2026-03-10')).toEqual([{ x: 4, y: -7, depth: 1 }]);
    expect(await water('2026-03-11', '2026-04-14')).toEqual([{ x: 4, y: -7, depth: 0 }]);
    expect(await water('2026-03-01', '2026-04-30')).toEqual([{ x: 4, y: -7, depth: 9 }]);
    expect(await water('2026-04-16', '2026-05-31')).toEqual([{ x: 4, y: -7, depth: 6 }]);
    expect(await water('2026-02-01', '2026-12-31')).toEqual([{ x: 4, y: -7, depth: 15 }]);
    // After the cell's last day with water: nothing more.
    expect(await water('2026-06-01', '2026-12-31')).toEqual([{ x: 4, y: -7, depth: 0 }]);
  });

  it('adds up a range across New Year from the rows of both years', async () => {
    const across = await water('2025-12-31', '2026-03-10');
    expect(across.sort((a, b) => a.x - b.x)).toEqual([
      { x: 0, y: 1, depth: 64 },
      { x: 4, y: -7, depth: 16 + 32 + 1 },
    ]);
    const lastDay = await water('2025-12-31', '2025-12-31');
    expect(lastDay.sort((a, b) => a.x - b.x)).toEqual([
      { x: 0, y: 1, depth: 64 },
      { x: 4, y: -7, depth: 16 },
    ]);
  });

  it('counts 29 February in a leap year as a day of its own', async () => {
    await addWater(database.db, 'P2', day('2028-02-29'), [{ x: 0, y: 0, mm: 1 }]);
    await addWater(database.db, 'P2', day('2028-03-01'), [{ x: 0, y: 0, mm: 2 }]);
    expect(await waterPerCell(database.db, 'P2', day('2028-02-29'), day('2028-02-29'))).toEqual([
      { x: 0, y: 0, depth: 1 },
    ]);
    expect(await waterPerCell(database.db, 'P2', day('2028-03-01'), day('2028-12-31'))).toEqual([
      { x: 0, y: 0, depth: 2 },
    ]);
  });
});
