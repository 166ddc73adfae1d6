import { rm } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { waterCells } from '../../src/modules/watermap/watermap.table';
import { migrationsBefore, migrationsFolder } from '../support/migrations';

describe('the migration to running sums of water', () => {
  const client = new PGlite();
  const db = drizzle(client, { casing: 'snake_case' });
  afterAll(() => client.close());

  it('turns the water stored per day into running sums, keeping every month total', async () => {
    const older = await migrationsBefore('0001_water_running_sums');
    await migrate(db, { migrationsFolder: older });
    await rm(older, { recursive: true, force: true });
    const perDay = Array.from({ length: 31 }, (_, day) => (day === 0 ? 1.5 : day === 9 ? 2 : day === 30 ? 0.5 : 0));
    await db.insert(waterCells).values({ machineId: 'P1', month: '2026-05-01', x: 3, y: -2, days: perDay, total: 4 });

    await migrate(db, { migrationsFolder });

    const [row] = await db.select().from(waterCells);
    expect(row!.days.slice(0, 10)).toEqual([1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 3.5]);
    expect(row!.days[29]).toBe(3.5);
    expect(row!.days[30]).toBe(4);
    expect(row!.total).toBe(4);
  });
});
