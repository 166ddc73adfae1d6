import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WaterBalanceSchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readForecast } from '../../src/modules/water-balance/forecast';
import { localDate } from '../../src/time/local-day';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';
import { dotted, expectTomorrowRefused } from '../support/weather-days';

/** An answer in Open-Meteo's daily format (its fields and units), served by a local server: the internet is never called. */
const RECORDED = readFileSync(new URL('./fixtures/open-meteo-daily.json', import.meta.url), 'utf8');
const HOUR_MS = 3_600_000;
const localMidnight = (day: number) => Date.UTC(2026, 5, day) - 2 * HOUR_MS;

function hourlyReadings(day: number) {
  return Array.from({ length: 24 }, (_, hour) => {
    const daylight = Math.max(0, Math.sin(((hour - 5) / 15) * Math.PI));
    return {
      stationId: 'WS-FORECAST',
      machineId: null,
      ts: new Date(localMidnight(day) + hour * HOUR_MS + 30 * 60 * 1000),
      lat: 52.301,
      lng: 17.2,
      temperature: 12 + 12 * daylight,
      humidity: 90 - 40 * daylight,
      rain: 0,
      wind: 2,
      solarRadiation: 750 * daylight,
    };
  });
}

// The season (taken as given): Kc 0.5 for 10 days, then a line to 1.1 over 20; roots 0.2 → 0.6 m over 29 days; loam-like soil.
const kc = (day: number) => (day <= 10 ? 0.5 : 0.5 + ((Math.min(day, 30) - 10) / 20) * 0.6);
const taw = (day: number) => 1000 * (0.25 - 0.12) * Math.min(0.6, 0.2 + (0.4 * (day - 1)) / 29);
const raw = (day: number) => 0.5 * taw(day);

/** A local server answering every GET with `body` (status `status`), and the paths it was asked. */
async function forecastServer(status: number, body: string): Promise<{ server: Server; url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? '');
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/forecast`, asked };
}

async function appWithSeason(forecastUrl: string): Promise<{ t: TestApp; farmer: ApiClient; sprinklerId: number }> {
  const t = await createTestApp({
    TIME_ZONE: 'Europe/Warsaw',
    FORECAST_URL: forecastUrl,
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  });
  const pivot = await buildSprinkler(t, { lat: '52.300000', lng: '17.200000', armLength: 100 });
  const user = await t.buildUser();
  await grant(t, pivot.id, user.id, 'control');
  const farmer = t.client();
  await farmer.login(user.email, USER_PASSWORD);
  for (let day = 1; day <= 7; day += 1) await t.database.db.insert(weatherReadings).values(hourlyReadings(day));
  const put = await farmer.put(`/api/sprinkler/${pivot.id}/crop-seasons/`, [
    {
      name: 'Forecast 2026',
      polygon: null,
      crop: { kc: [0.5, 1.1, 0.6], stages: [10, 20, 30, 20], rootDepth: [0.2, 0.6], p: 0.5 },
      emergence: '01.06.2026',
      soil: { fieldCapacity: 0.25, wiltingPoint: 0.12 },
    },
  ]);
  expect(put.status).toBe(200);
  return { t, farmer, sprinklerId: pivot.id };
}

describe('the forecast service', () => {
  let service: Awaited<ReturnType<typeof forecastServer>>;
  let broken: Awaited<ReturnType<typeof forecastServer>>;
  let withForecast: Awaited<ReturnType<typeof appWithSeason>>;
  let withBroken: Awaited<ReturnType<typeof appWithSeason>>;

  beforeAll(async () => {
    service = await forecastServer(200, RECORDED);
    broken = await forecastServer(500, '{"error":true,"reason":"down"}');
    withForecast = await appWithSeason(service.url);
    withBroken = await appWithSeason(broken.url);
  });
  afterAll(async () => {
    await withForecast.t.close();
    await withBroken.t.close();
    service.server.close();
    broken.server.close();
  });

  it('reads the daily ET0 and rain of an Open-Meteo answer', () => {
    const days = readForecast(RECORDED)!;
    expect(days).toHaveLength(16);
    expect(days[1]).toEqual({ date: '2026-06-09', referenceEvapotranspiration: 6, rain: 10 });
    expect(readForecast('{"daily":{}}')).toBeNull();
    expect(readForecast('not json')).toBeNull();
  });

  it('gives the next irrigation from the forecast days, asked once an hour at the station', async () => {
    const { farmer, sprinklerId } = withForecast;
    const get = async () =>
      WaterBalanceSchema.parse(
        (await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, { query: { date: '07.06.2026' } })).body,
      );
    const balance = await get();
    expect(balance.forecast).toBe('forecast');
    const zone = balance.zones[0]!;
    // By hand from the zone's depletion on 7 June and the forecast's days (season days 8, 9, …).
    const days = readForecast(RECORDED)!;
    let depletion = zone.depletion;
    let due: { date: string; net: number } | null = null;
    for (let index = 0; index < days.length && due === null; index += 1) {
      const day = 8 + index;
      const { referenceEvapotranspiration: et0, rain } = days[index]!;
      const start = Math.max(0, depletion - (rain < 0.2 * et0 ? 0 : rain));
      if (start > 0 && start >= raw(day)) due = { date: days[index]!.date, net: start };
      else depletion = Math.min(taw(day), start + kc(day) * et0);
    }
    expect(due).not.toBeNull();
    const [year, month, dayOfMonth] = due!.date.split('-');
    expect(zone.nextIrrigation).toBe(`${dayOfMonth}.${month}.${year}`);
    expect(zone.netDose!).toBeCloseTo(due!.net, 1);

    await get();
    expect(service.asked).toHaveLength(1);
    const asked = new URL(service.asked[0]!, 'http://localhost');
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      latitude: '52.30',
      longitude: '17.20',
      daily: 'et0_fao_evapotranspiration,precipitation_sum',
      timezone: 'Europe/Warsaw',
      forecast_days: '16',
    });
  });

  it('falls back to the recent ET0 when the service fails, and says why', async () => {
    const { farmer, sprinklerId } = withBroken;
    const response = await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, {
      query: { date: '07.06.2026' },
    });
    const balance = WaterBalanceSchema.parse(response.body);
    expect(balance).toMatchObject({ forecast: 'recent-et0', forecastFallback: 'failed' });
    expect(balance.zones[0]!.nextIrrigation).not.toBeNull();
    expect(broken.asked).toHaveLength(1);
  });

  it('says the forecast was off, or did not reach back to an older date', async () => {
    const off = await appWithSeason('off');
    try {
      const balance = WaterBalanceSchema.parse(
        (await off.farmer.get(`/api/sprinkler/${off.sprinklerId}/water-balance/`, { query: { date: '07.06.2026' } }))
          .body,
      );
      expect(balance).toMatchObject({ forecast: 'recent-et0', forecastFallback: 'off' });
    } finally {
      await off.t.close();
    }
    // The forecast's first day is 8 June: it cannot stand for the days after 5 June.
    const { farmer, sprinklerId } = withForecast;
    const older = await farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, { query: { date: '05.06.2026' } });
    expect(WaterBalanceSchema.parse(older.body)).toMatchObject({
      forecast: 'recent-et0',
      forecastFallback: 'past_date',
    });
  });

  it('refuses a day after today in the server’s time zone, in the page’s language', async () => {
    const { farmer, sprinklerId } = withForecast;
    const today = localDate('Europe/Warsaw', Date.now());
    const ask = (date: string, language: string) =>
      farmer.get(`/api/sprinkler/${sprinklerId}/water-balance/`, {
        query: { date: dotted(date) },
        headers: { 'accept-language': language },
      });
    expect((await ask(today, 'en')).status).toBe(200);
    await expectTomorrowRefused(ask, today);
  });
});
