import { describe, expect, it } from 'vitest';
import { soilReadings } from '../../src/modules/weather/weather.table';
import { useTestApp } from '../support/test-app';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const TIME_ZONE = 'Europe/Warsaw';
const CENTRE = { lat: 52.3, lng: 17.2 };
/** Local midnight of 1 June 2026 in Warsaw (UTC+2). */
const FIRST_MIDNIGHT = Date.UTC(2026, 4, 31, 22);

describe("probes' newest reading of each day, kept while the readings are the same", () => {
  const t = useTestApp();
  const range = { from: new Date(FIRST_MIDNIGHT), to: new Date(FIRST_MIDNIGHT + 10 * DAY_MS - 1), timeZone: TIME_ZONE };
  const read = () => t.app.weather.dailyProbeReadings(t.database.db, CENTRE, 400, range);
  const reading = (day: number, hour: number, moisture: number) => ({
    sensorId: 'PROBE-DAYS',
    ts: new Date(FIRST_MIDNIGHT + day * DAY_MS + hour * HOUR_MS),
    lat: CENTRE.lat + 0.001,
    lng: CENTRE.lng,
    moisture,
  });

  it('answers again from what it read, and anew once a reading comes, even late for a day it read', async () => {
    await t.database.db.insert(soilReadings).values([reading(0, 8, 20), reading(0, 20, 21), reading(3, 12, 22)]);
    const first = await read();
    expect(first.map((row) => row.moisture)).toEqual([21, 22]);
    expect(await read()).toBe(first);

    // Late for day 0, later than its newest: day 0's reading changes; the count and the newest time say so.
    await t.database.db.insert(soilReadings).values(reading(0, 23, 19));
    const afterLate = await read();
    expect(afterLate.map((row) => row.moisture)).toEqual([19, 22]);
    // Late and not the newest of its day (day 3): the answer stays the same, but is read again.
    await t.database.db.insert(soilReadings).values(reading(3, 6, 30));
    const again = await read();
    expect(again.map((row) => row.moisture)).toEqual([19, 22]);
    expect(again).not.toBe(afterLate);
    // A new day.
    await t.database.db.insert(soilReadings).values(reading(5, 7, 18));
    expect((await read()).map((row) => [row.ts.getTime(), row.moisture])).toEqual([
      [FIRST_MIDNIGHT + 23 * HOUR_MS, 19],
      [FIRST_MIDNIGHT + 3 * DAY_MS + 12 * HOUR_MS, 22],
      [FIRST_MIDNIGHT + 5 * DAY_MS + 7 * HOUR_MS, 18],
    ]);
  });
});
