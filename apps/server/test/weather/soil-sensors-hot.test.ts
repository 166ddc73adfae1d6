import type { SoilMessage } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { upsertSoilReadings } from '../../src/modules/weather/weather.repository';
import { createTestDatabase } from '../support/database';

const soil = (ts: number, moisture: number): SoilMessage => ({ v: 1, ts, lat: 52.4, lng: 17, moisture, depth: 30 });

describe("each probe's newest reading", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('is updated where its row is (HOT): a reading leaves no row behind', async () => {
    // Enough probes to fill pages: on pages filled to the brim the new version of a row would not
    // fit beside the old one, and every reading would leave a dead row and an index entry elsewhere.
    const sensors = Array.from({ length: 300 }, (_, index) => ({ sensorId: `HOT-PROBE-${index}`, machineId: 'P1' }));
    const readingsAt = (ts: number) =>
      sensors.map((reporter, index) => ({ reporter, message: soil(ts, 20 + (index % 10)) }));
    await upsertSoilReadings(database.db, readingsAt(1_795_320_000_000));

    // The counts of this backend not yet sent to the statistics, taken before and after.
    const counted = await database.db.transaction(async (tx) => {
      const count = async () => {
        const result = await tx.execute(sql`
          select pg_stat_get_xact_tuples_updated('soil_sensors'::regclass)::int as updated,
                 pg_stat_get_xact_tuples_hot_updated('soil_sensors'::regclass)::int as hot`);
        return (result as unknown as { rows: { updated: number; hot: number }[] }).rows[0]!;
      };
      const before = await count();
      await upsertSoilReadings(tx, readingsAt(1_795_320_060_000));
      const after = await count();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(counted).toEqual({ updated: sensors.length, hot: sensors.length });
  });
});
