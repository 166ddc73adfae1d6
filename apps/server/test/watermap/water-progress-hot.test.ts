import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { advanceWaterProgress } from '../../src/modules/watermap/watermap.repository';
import { createTestDatabase } from '../support/database';
import { countUpdates } from '../support/hot-updates';

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

    const moved = await countUpdates(database.db, 'water_progress', async (tx) => {
      for (const machineId of machines) {
        expect(await advanceWaterProgress(tx, machineId, counted, new Date(counted.getTime() + 15_000))).toBe(true);
      }
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
