import { StationDaysSchema, dottedOfIsoDate } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDayRangeValid } from '../../src/modules/water-balance/station-days.service';
import { referenceEvapotranspiration } from '../../src/modules/weather/reference-evapotranspiration';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate, localMidnight } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

const TIME_ZONE = 'Europe/Warsaw';
const HOUR_MS = 60 * 60 * 1000;
const BRUSSELS = { lat: 50.8, lng: 4.35 };

/** The latest 6 July before today: the day of FAO-56 example 18, within the readings' retention. */
function lastSixthOfJuly(): string {
  const today = localDate(TIME_ZONE, Date.now());
  const thisYear = `${today.slice(0, 4)}-07-06`;
  return thisYear < today ? thisYear : `${Number(today.slice(0, 4)) - 1}-07-06`;
}

/** A reading at a local hour of a day (YYYY-MM-DD) from the station in Brussels. */
function reading(date: string, hour: number, figures: Partial<typeof weatherReadings.$inferInsert>) {
  return {
    stationId: 'WS-BRUSSELS',
    ts: new Date(localMidnight(TIME_ZONE, date).getTime() + hour * HOUR_MS),
    ...BRUSSELS,
    temperature: 15,
    humidity: 70,
    rain: 0,
    ...figures,
  };
}

describe('a weather station days as the water balance takes them', () => {
  let t: TestApp;
  let farmer: ApiClient;
  let stranger: ApiClient;
  const example = lastSixthOfJuly();
  const dayAfter = addDays(example, 1);
  const range = { start: dottedOfIsoDate(example), stop: dottedOfIsoDate(dayAfter) };

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE });
    const near = await buildSprinkler(t, { lat: '50.810000', lng: '4.350000' });
    const elsewhere = await buildSprinkler(t, { lat: '52.400000', lng: '17.000000' });
    const clients: ApiClient[] = [];
    for (const machine of [near, elsewhere]) {
      const user = await t.buildUser();
      await grant(t, machine.id, user.id, 'watch');
      const client = t.client();
      await client.login(user.email, USER_PASSWORD);
      clients.push(client);
    }
    [farmer, stranger] = clients as [ApiClient, ApiClient];
    // FAO-56 example 18 (Brussels, 6 July): Tmin 12.3 °C, Tmax 21.5 °C, RHmin 63 %, RHmax 84 %,
    // wind 2.078 m/s, Rs 22.07 MJ/m² (a mean of 255.44 W/m²); 0.6 mm of rain besides.
    // The day after: one reading with neither wind nor radiation.
    await t.database.db
      .insert(weatherReadings)
      .values([
        reading(example, 6, { temperature: 12.3, humidity: 84, wind: 1.078, solarRadiation: 55.44, rain: 0.2 }),
        reading(example, 12, { temperature: 21.5, humidity: 63, wind: 3.078, solarRadiation: 455.44 }),
        reading(example, 18, { temperature: 17, humidity: 70, solarRadiation: 255.44, rain: 0.4 }),
        reading(dayAfter, 12, { temperature: 18, humidity: 60 }),
      ]);
  });
  afterAll(() => t.close());

  it("answers each day's ET0 and the figures it was computed from, as FAO-56 example 18 gives them", async () => {
    const response = await farmer.get('/api/weather-station/WS-BRUSSELS/days/', { query: range });
    expect(response.status).toBe(200);
    const station = StationDaysSchema.parse(response.body);
    expect(station).toMatchObject({ id: 'WS-BRUSSELS', ...BRUSSELS, elevation: 100, timeZone: TIME_ZONE });
    const [sixth, seventh] = station.days;
    expect(sixth).toMatchObject({
      date: range.start,
      minTemperature: 12.3,
      maxTemperature: 21.5,
      minHumidity: 63,
      maxHumidity: 84,
      readings: 3,
    });
    expect(sixth!.wind).toBeCloseTo(2.078, 6);
    expect(sixth!.rain).toBeCloseTo(0.6, 6);
    expect(sixth!.solarRadiation).toBeCloseTo(22.07, 3);
    expect(sixth!.et0).toBeCloseTo(3.9, 1);
    expect(seventh).toMatchObject({ date: range.stop, wind: null, solarRadiation: null, readings: 1, rain: 0 });
  });

  it('lets anyone redo the ET0 by hand from the figures answered', async () => {
    const station = StationDaysSchema.parse(
      (await farmer.get('/api/weather-station/WS-BRUSSELS/days/', { query: range })).body,
    );
    for (const day of station.days) {
      const [dayOfMonth, month, year] = day.date.split('.').map(Number) as [number, number, number];
      const dayOfYear = (Date.UTC(year, month - 1, dayOfMonth) - Date.UTC(year, 0, 0)) / (24 * HOUR_MS);
      const byHand = referenceEvapotranspiration({
        dayOfYear,
        latitudeDegrees: station.lat,
        elevationM: station.elevation,
        minTemperature: day.minTemperature,
        maxTemperature: day.maxTemperature,
        minHumidity: day.minHumidity,
        maxHumidity: day.maxHumidity,
        wind: day.wind ?? undefined,
        solarRadiation: day.solarRadiation ?? undefined,
      });
      expect(day.et0).toBeCloseTo(byHand, 10);
    }
  });

  it('takes the elevation a station reports, as on the highveld at 1,280 m, in its ET0 and the balance’s', async () => {
    // The same day's readings from a station near Bothaville that says where it stands, through
    // the service the broker's readings go to: Eq. 7's pressure at 1,280 m is 87.0 kPa, not 100.1.
    const highveld = { lat: -27.35, lng: 26.76, elevation: 1280 };
    const machine = await buildSprinkler(t, { lat: '-27.351000', lng: '26.760000' });
    const user = await t.buildUser();
    await grant(t, machine.id, user.id, 'watch');
    const owner = t.client();
    await owner.login(user.email, USER_PASSWORD);
    const figures = [
      { hour: 6, temperature: 12.3, humidity: 84, wind: 1.078, solarRadiation: 55.44, rain: 0.2 },
      { hour: 12, temperature: 21.5, humidity: 63, wind: 3.078, solarRadiation: 455.44, rain: 0 },
      { hour: 18, temperature: 17, humidity: 70, wind: 2.078, solarRadiation: 255.44, rain: 0.4 },
    ];
    await Promise.all(
      figures.map(({ hour, ...reading }) =>
        t.app.weather.recordWeather(
          { machineId: machine.internalId, deviceId: 'WS-HIGHVELD' },
          { v: 1, ts: localMidnight(TIME_ZONE, example).getTime() + hour * HOUR_MS, ...highveld, ...reading },
        ),
      ),
    );
    await t.app.weather.flush();
    const station = StationDaysSchema.parse(
      (await owner.get('/api/weather-station/WS-HIGHVELD/days/', { query: range })).body,
    );
    expect(station).toMatchObject({ id: 'WS-HIGHVELD', ...highveld });
    const [day] = station.days;
    const figuresOfDay = {
      dayOfYear: (Date.parse(`${example}T12:00:00Z`) - Date.UTC(Number(example.slice(0, 4)), 0, 0)) / (24 * HOUR_MS),
      latitudeDegrees: highveld.lat,
      minTemperature: day!.minTemperature,
      maxTemperature: day!.maxTemperature,
      minHumidity: day!.minHumidity,
      maxHumidity: day!.maxHumidity,
      wind: day!.wind!,
      solarRadiation: day!.solarRadiation!,
    };
    const atElevation = (elevationM: number) => referenceEvapotranspiration({ ...figuresOfDay, elevationM });
    expect(day!.et0).toBeCloseTo(atElevation(1280), 10);
    // Not the 100 m a station that does not say is taken at: the thinner air shows in ET0.
    expect(Math.abs(atElevation(1280) - atElevation(100))).toBeGreaterThan(0.02);
    const balanceDays = await t.app.weather.dailyWeatherNear(t.database.db, highveld, example, example);
    expect(balanceDays.stationId).toBe('WS-HIGHVELD');
    expect(balanceDays.days[0]!.referenceEvapotranspiration).toBe(day!.et0);
  });

  it('answers the very days the water balance reads of the nearest station', async () => {
    const station = StationDaysSchema.parse(
      (await farmer.get('/api/weather-station/WS-BRUSSELS/days/', { query: range })).body,
    );
    const balanceDays = await t.app.weather.dailyWeatherNear(
      t.database.db,
      { lat: 50.81, lng: 4.35 },
      example,
      dayAfter,
    );
    expect(balanceDays.stationId).toBe('WS-BRUSSELS');
    expect(
      balanceDays.days.map((day) => [dottedOfIsoDate(day.date), day.referenceEvapotranspiration, day.rain]),
    ).toEqual(station.days.map((day) => [day.date, day.et0, day.rain]));
  });

  it('shows a station to the users of a machine near it and to administrators, to no one else', async () => {
    const admin = await t.adminClient();
    expect((await admin.get('/api/weather-station/WS-BRUSSELS/days/', { query: range })).status).toBe(200);
    const hidden = await stranger.get('/api/weather-station/WS-BRUSSELS/days/', { query: range });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ code: 'weather_station_not_found' });
    const unknown = await admin.get('/api/weather-station/WS-NOWHERE/days/', { query: range });
    expect(unknown.body).toMatchObject({ code: 'weather_station_not_found' });
  });

  it('answers a range without readings with no days', async () => {
    const before = dottedOfIsoDate(addDays(example, -3));
    const response = await farmer.get('/api/weather-station/WS-BRUSSELS/days/', {
      query: { start: before, stop: before },
    });
    expect(StationDaysSchema.parse(response.body).days).toEqual([]);
  });

  it('refuses, in the language asked for, a range that runs backwards, spans more than a season or reaches past today', async () => {
    const today = localDate(TIME_ZONE, Date.now());
    const ranges = [
      { start: range.stop, stop: range.start },
      { start: dottedOfIsoDate(addDays(today, -366)), stop: dottedOfIsoDate(today) },
      { start: dottedOfIsoDate(today), stop: dottedOfIsoDate(addDays(today, 1)) },
    ];
    for (const query of ranges) {
      const response = await farmer.get('/api/weather-station/WS-BRUSSELS/days/', {
        query,
        headers: { 'accept-language': 'pl' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'invalid_day_range',
        message:
          'Zakres dni musi biec od początku do końca, obejmować najwyżej 366 dni i kończyć się najpóźniej dzisiaj',
      });
    }
    const english = await farmer.get('/api/weather-station/WS-BRUSSELS/days/', {
      query: ranges[0]!,
      headers: { 'accept-language': 'en' },
    });
    expect(english.body).toMatchObject({
      message: 'The days asked for must run from start to stop, cover at most 366 days and end no later than today',
    });
    const season = { start: dottedOfIsoDate(addDays(today, -365)), stop: dottedOfIsoDate(today) };
    expect((await farmer.get('/api/weather-station/WS-BRUSSELS/days/', { query: season })).status).toBe(200);
  });
});

describe('a valid range of days', () => {
  it('runs forwards, spans at most 366 days and ends by today', () => {
    expect(isDayRangeValid('2026-07-06', '2026-07-06', '2026-07-06')).toBe(true);
    expect(isDayRangeValid('2026-07-07', '2026-07-06', '2026-11-28')).toBe(false);
    expect(isDayRangeValid('2026-07-06', '2026-07-07', '2026-07-06')).toBe(false);
    // 2024 is a leap year: 1 January to 31 December is 366 days, one more is too many.
    expect(isDayRangeValid('2024-01-01', '2024-12-31', '2026-11-28')).toBe(true);
    expect(isDayRangeValid('2024-01-01', '2025-01-01', '2026-11-28')).toBe(false);
  });
});
