import type { SoilMessage, WeatherMessage } from '@pivot/contracts';
import { asc, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quarantinedMessages } from '../../src/modules/quarantine/quarantine.table';
import { soilReadings, soilSensors, weatherReadings } from '../../src/modules/weather/weather.table';
import { type TestApp, createTestApp } from '../support/test-app';

let count = 0;
const id = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(count += 1)}`;
const weather = (ts: number, changes: Partial<WeatherMessage> = {}): WeatherMessage => ({
  v: 1,
  ts,
  lat: 52.4,
  lng: 17,
  temperature: 18,
  humidity: 60,
  rain: 0,
  ...changes,
});
const soil = (ts: number, moisture: number): SoilMessage => ({ v: 1, ts, lat: 52.4, lng: 17, moisture, depth: 30 });

describe("stations' and sensors' readings, stored in batches", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const weatherOf = (stations: string[]) =>
    t.database.db
      .select()
      .from(weatherReadings)
      .where(inArray(weatherReadings.stationId, stations))
      .orderBy(asc(weatherReadings.ts));
  const soilHistoryOf = (sensors: string[]) =>
    t.database.db
      .select()
      .from(soilReadings)
      .where(inArray(soilReadings.sensorId, sensors))
      .orderBy(asc(soilReadings.ts));
  const quarantinedOf = (machines: string[]) =>
    t.database.db.select().from(quarantinedMessages).where(inArray(quarantinedMessages.machineId, machines));

  it('stores each reading once, the first controller to report a station or sensor keeping it, all in one batch', async () => {
    const [owner, other] = [id('OWNER'), id('OTHER')];
    const [station, sensor] = [id('WS'), id('PROBE')];
    const now = Date.now();
    // All handed over at once, as the gateway does within the flush interval: one batch.
    await Promise.all([
      t.app.weather.recordWeather({ machineId: owner, deviceId: station }, weather(now - 2000)),
      t.app.weather.recordWeather({ machineId: owner, deviceId: station }, weather(now - 1000, { rain: 0.2 })),
      // The same reading again (a controller's resend after a lost acknowledgement), and another controller's.
      t.app.weather.recordWeather({ machineId: owner, deviceId: station }, weather(now - 1000, { rain: 0.2 })),
      t.app.weather.recordWeather({ machineId: other, deviceId: station }, weather(now, { rain: 9 })),
      t.app.weather.recordSoil({ machineId: owner, deviceId: sensor }, soil(now - 1000, 31)),
      t.app.weather.recordSoil({ machineId: owner, deviceId: sensor }, soil(now - 3000, 33)),
      t.app.weather.recordSoil({ machineId: owner, deviceId: sensor }, soil(now - 3000, 33)),
      t.app.weather.recordSoil({ machineId: other, deviceId: sensor }, soil(now, 10)),
    ]);

    const stations = await weatherOf([station]);
    expect(stations.map((row) => [row.machineId, row.ts.getTime(), row.rain])).toEqual([
      [owner, now - 2000, 0],
      [owner, now - 1000, 0.2],
    ]);
    const history = await soilHistoryOf([sensor]);
    expect(history.map((row) => [row.machineId, row.ts.getTime(), row.moisture])).toEqual([
      [owner, now - 3000, 33],
      [owner, now - 1000, 31],
    ]);
    // The newest of the owner's, though an older one came after it.
    const latest = await t.database.db
      .select()
      .from(soilSensors)
      .where(inArray(soilSensors.sensorId, [sensor]));
    expect(latest.map((row) => [row.machineId, row.ts.getTime(), row.moisture])).toEqual([[owner, now - 1000, 31]]);

    // In a later batch the stored owner decides: the other controller's readings still change nothing.
    await Promise.all([
      t.app.weather.recordWeather({ machineId: other, deviceId: station }, weather(now + 500)),
      t.app.weather.recordSoil({ machineId: other, deviceId: sensor }, soil(now + 500, 12)),
      t.app.weather.recordSoil({ machineId: owner, deviceId: sensor }, soil(now + 400, 29)),
    ]);
    expect(await weatherOf([station])).toHaveLength(2);
    expect((await soilHistoryOf([sensor])).map((row) => row.moisture)).toEqual([33, 31, 29]);
    const [newest] = await t.database.db
      .select()
      .from(soilSensors)
      .where(inArray(soilSensors.sensorId, [sensor]));
    expect(newest).toMatchObject({ machineId: owner, moisture: 29 });
  });

  it('stores the rest of a batch with a reading the database refuses, and sets that one aside with its error', async () => {
    const [steady, faulty] = [id('STEADY'), id('FAULTY')];
    const [station, faultyStation, sensor] = [id('WS'), id('WS'), id('PROBE')];
    const now = Date.now();
    // Text where a number belongs: the protocol refuses it before, so it is handed over directly, past the gateway.
    const refused = weather(now, { temperature: 'warm' as unknown as number });
    await Promise.all([
      ...Array.from({ length: 5 }, (_, index) =>
        t.app.weather.recordWeather({ machineId: steady, deviceId: station }, weather(now - 5000 + index)),
      ),
      t.app.weather.recordWeather({ machineId: faulty, deviceId: faultyStation }, weather(now - 1000)),
      t.app.weather.recordWeather({ machineId: faulty, deviceId: faultyStation }, refused),
      ...Array.from({ length: 3 }, (_, index) =>
        t.app.weather.recordSoil({ machineId: steady, deviceId: sensor }, soil(now - 3000 + index, 30)),
      ),
    ]);

    expect(await weatherOf([station])).toHaveLength(5);
    expect((await weatherOf([faultyStation])).map((row) => row.ts.getTime())).toEqual([now - 1000]);
    expect(await soilHistoryOf([sensor])).toHaveLength(3);
    const set = await quarantinedOf([steady, faulty]);
    expect(set).toHaveLength(1);
    expect(set[0]).toMatchObject({ machineId: faulty, deviceId: faultyStation, kind: 'weather', reason: 'refused' });
    expect(set[0]!.detail).toContain('invalid input syntax');
    expect(JSON.parse(set[0]!.payloadHead.toString('utf8'))).toEqual(refused);
    const health = await t.client().get('/api/health');
    expect(health.body).toMatchObject({ status: 'ok', problems: [] });
  });
});
