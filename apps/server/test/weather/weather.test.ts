import { SprinklerDetailSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { startOfLocalDay } from '../../src/time/local-day';
import { buildSprinkler } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

const HOUR_MS = 60 * 60 * 1000;

describe('weather stations on a machine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Hourly readings: a summer-like day, with 0.5 mm of rain in each of the given hours before now. */
  async function storeHourly(stationId: string, lat: number, hours: number, rainyHoursAgo: number[]) {
    const now = Date.now();
    const rows = [];
    for (let hoursAgo = hours; hoursAgo >= 0; hoursAgo -= 1) {
      const ts = new Date(now - hoursAgo * HOUR_MS);
      const hourOfDay = ts.getUTCHours();
      const daylight = Math.max(0, Math.sin(((hourOfDay - 4) / 16) * Math.PI));
      rows.push({
        stationId,
        ts,
        lat,
        lng: 17,
        temperature: 12 + 10 * daylight,
        humidity: 85 - 25 * daylight,
        rain: rainyHoursAgo.includes(hoursAgo) ? 0.5 : 0,
        wind: 2,
        solarRadiation: 800 * daylight,
      });
    }
    await t.database.db.insert(weatherReadings).values(rows);
  }

  it('shows nearby stations with rainfall today and over 7 days, and ETP over the last 7 days', async () => {
    const pivot = await buildSprinkler(t, { lat: '52.400000', lng: '17.000000' });
    await storeHourly('WS-NEAR', 52.41, 10 * 24, [1, 30, 100, 200]);
    await storeHourly('WS-FAR', 52.6, 24, []);
    const admin = await t.adminClient();
    const detail = SprinklerDetailSchema.parse((await admin.get(`/api/sprinkler/${pivot.id}/`)).body);
    expect(detail.weather_stations.map((station) => station.id)).toEqual(['WS-NEAR']);
    const [station] = detail.weather_stations;

    const hoursSinceMidnight = (Date.now() - startOfLocalDay('Europe/Warsaw').getTime()) / HOUR_MS;
    const expectedToday = [1, 30, 100, 200].filter((hoursAgo) => hoursAgo < hoursSinceMidnight).length * 0.5;
    expect(station!.rainfall).toBeCloseTo(expectedToday, 5);
    // 200 hours ago is more than 7 days before today began.
    expect(station!.rainfall_7d).toBeCloseTo(1.5, 5);
    // Seven summer-like days evaporate a few mm a day.
    expect(station!.etp_7d).toBeGreaterThan(7 * 1.5);
    expect(station!.etp_7d).toBeLessThan(7 * 6);
    expect(station!.etp_days).toBe(7);
    expect(station!.expire_timestamp).toBeGreaterThan(Date.now());
  });

  it('gives the ETP of a station with less than a week of history, and over how many days', async () => {
    const pivot = await buildSprinkler(t, { lat: '53.400000', lng: '17.000000' });
    const today = startOfLocalDay('Europe/Warsaw').getTime();
    // Readings from each of the last three days (morning, noon, evening) and one from today.
    const rows = [3, 2, 1].flatMap((daysAgo) =>
      [6, 12, 18].map((hour) => ({
        stationId: 'WS-NEW',
        ts: new Date(today - daysAgo * 24 * HOUR_MS + hour * HOUR_MS),
        lat: 53.41,
        lng: 17,
        temperature: hour === 12 ? 24 : 12,
        humidity: hour === 12 ? 55 : 85,
        rain: 0,
        wind: 2,
        solarRadiation: hour === 12 ? 800 : 100,
      })),
    );
    rows.push({ ...rows[0]!, ts: new Date(Date.now() - 60_000) });
    await t.database.db.insert(weatherReadings).values(rows);
    const admin = await t.adminClient();
    const detail = SprinklerDetailSchema.parse((await admin.get(`/api/sprinkler/${pivot.id}/`)).body);
    const [station] = detail.weather_stations;
    expect(station!.etp_days).toBe(3);
    expect(station!.etp_7d).toBeGreaterThan(3 * 1.5);
    expect(station!.etp_7d).toBeLessThan(3 * 6);
  });
});
