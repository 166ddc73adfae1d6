import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { addWaterProgress, advanceWaterProgress } from '../../src/modules/watermap/watermap.repository';
import { createTestDatabase } from '../support/database';
import { countUpdates } from '../support/hot-updates';

describe("each machine's water progress", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
    // The round measured fits beside its rows only once the rounds before it are pruned from
    // their pages, which any snapshot older than them holds back. An autovacuum ANALYZE of this
    // table, which the rounds' writes may start at any moment, takes one: a cause that fits a run
    // on a loaded host that counted 35 of 400 in place. Without it the count is the table's own.
    await database.db.execute(sql`alter table water_progress set (autovacuum_enabled = false)`);
  });
  afterAll(() => database.close());

  it('moves where its row is (HOT): a round leaves no row behind', async () => {
    // Enough machines to fill pages: on pages filled to the brim the new version of a row would
    // not fit beside the old one, and every round would leave a dead row and an index entry elsewhere.
    const machines = Array.from({ length: 400 }, (_, index) => `HOT-WATER-${index}`);
    const counted = new Date(1_795_320_000_000);
    await addWaterProgress(database.db, machines);
    const moves = (from: Date, to: Date) => machines.map((machineId) => ({ machineId, from, to }));
    // Made at the start of time and moved twice, as a fleet's first runs do: the move measured is
    // one of the runs after, each row's first versions long dead.
    const earlier = new Date(counted.getTime() - 15_000);
    expect((await advanceWaterProgress(database.db, moves(new Date(0), earlier))).size).toBe(machines.length);
    expect((await advanceWaterProgress(database.db, moves(earlier, counted))).size).toBe(machines.length);

    const later = new Date(counted.getTime() + 15_000);
    const moved = await countUpdates(database.db, 'water_progress', async (tx) => {
      expect((await advanceWaterProgress(tx, moves(counted, later))).size).toBe(machines.length);
    });
    expect(moved.updated).toBe(machines.length);
    // A page's last row or two may find its half full already.
    expect(moved.hot).toBeGreaterThanOrEqual(machines.length * 0.95);
    // Moved from a progress it no longer has: another instance's count stands; one moved from
    // where it is moves.
    const [first, second] = machines;
    const again = await advanceWaterProgress(database.db, [
      { machineId: first!, from: counted, to: new Date(counted.getTime() + 30_000) },
      { machineId: second!, from: later, to: new Date(counted.getTime() + 30_000) },
    ]);
    expect([...again]).toEqual([second]);
  });
});
