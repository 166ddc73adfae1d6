import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { soilReadings, soilSensors, weatherReadings } from '../../src/modules/weather/weather.table';
import { useTestApp } from '../support/test-app';

const DAY_MS = 24 * 60 * 60_000;
const RETENTION_DAYS = 300;

describe("stations' and probes' old readings", () => {
  const t = useTestApp({ READINGS_RETENTION_DAYS: String(RETENTION_DAYS) });

  it('are deleted beyond READINGS_RETENTION_DAYS; newer ones and each sensor’s latest reading stay', async () => {
    const now = Date.now();
    const ages = [RETENTION_DAYS + 30, RETENTION_DAYS + 1, RETENTION_DAYS - 1, 1];
    const position = { lat: 52.4, lng: 17 };
    await t.database.db.insert(weatherReadings).values(
      ages.map((days) => ({
        stationId: 'WS-OLD',
        ts: new Date(now - days * DAY_MS),
        ...position,
        temperature: 15,
        humidity: 70,
        rain: 0,
      })),
    );
    await t.database.db
      .insert(soilReadings)
      .values(
        ages.map((days) => ({ sensorId: 'PROBE-OLD', ts: new Date(now - days * DAY_MS), ...position, moisture: 25 })),
      );
    // A probe silent since before the retention still shows its last reading on the map.
    await t.database.db.insert(soilSensors).values({
      sensorId: 'PROBE-SILENT',
      ts: new Date(now - (RETENTION_DAYS + 30) * DAY_MS),
      ...position,
      moisture: 20,
    });

    expect(await t.app.weather.prune(now)).toBe(4);

    const kept = (rows: { ts: Date }[]) =>
      rows.map((row) => Math.round((now - row.ts.getTime()) / DAY_MS)).sort((a, b) => b - a);
    const stations = await t.database.db
      .select()
      .from(weatherReadings)
      .where(inArray(weatherReadings.stationId, ['WS-OLD']));
    expect(kept(stations)).toEqual([RETENTION_DAYS - 1, 1]);
    const probes = await t.database.db
      .select()
      .from(soilReadings)
      .where(inArray(soilReadings.sensorId, ['PROBE-OLD']));
    expect(kept(probes)).toEqual([RETENTION_DAYS - 1, 1]);
    expect(
      await t.database.db
        .select()
        .from(soilSensors)
        .where(inArray(soilSensors.sensorId, ['PROBE-SILENT'])),
    ).toHaveLength(1);
    expect(await t.app.weather.prune(now)).toBe(0);
  });
});
