import type { SoilMessage } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { upsertSoilReadings } from '../../src/modules/weather/weather.repository';
import { createTestDatabase } from '../support/database';
import { countUpdates } from '../support/hot-updates';

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

    const counted = await countUpdates(database.db, 'soil_sensors', async (tx) => {
      await upsertSoilReadings(tx, readingsAt(1_795_320_060_000));
    });
    expect(counted).toEqual({ updated: sensors.length, hot: sensors.length });
  });
});
