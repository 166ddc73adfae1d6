import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { advanceWaterProgress } from '../../src/modules/watermap/watermap.repository';
import { createTestDatabase } from '../support/database';

describe("each machine's water progress", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('moves where its row is (HOT): a round leaves no row behind', async () => {
    // Enough machines to fill pages: on pages filled to the brim the new version of a row would
    // not fit beside the old one, and every round would leave a dead row and an index entry elsewhere.
    const machines = Array.from({ length: 400 }, (_, index) => `HOT-WATER-${index}`);
    const counted = new Date(1_795_320_000_000);
    for (const machineId of machines) {
      expect(await advanceWaterProgress(database.db, machineId, new Date(0), counted)).toBe(true);
    }

    // The counts of this backend not yet sent to the statistics, taken before and after.
    const moved = await database.db.transaction(async (tx) => {
      const count = async () => {
        const result = await tx.execute(sql`
          select pg_stat_get_xact_tuples_updated('water_progress'::regclass)::int as updated,
                 pg_stat_get_xact_tuples_hot_updated('water_progress'::regclass)::int as hot`);
        return (result as unknown as { rows: { updated: number; hot: number }[] }).rows[0]!;
      };
      const before = await count();
      for (const machineId of machines) {
        expect(await advanceWaterProgress(tx, machineId, counted, new Date(counted.getTime() + 15_000))).toBe(true);
      }
      const after = await count();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(moved.updated).toBe(machines.length);
    // A page's last row or two may find its half full already.
    expect(moved.hot).toBeGreaterThanOrEqual(machines.length * 0.95);
    // Moved from a progress it no longer has: another instance's count stands.
    expect(await advanceWaterProgress(database.db, machines[0]!, counted, new Date(counted.getTime() + 30_000))).toBe(
      false,
    );
  });
});
