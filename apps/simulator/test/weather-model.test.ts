import { WeatherMessageSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  type WeatherReading,
  WeatherModel,
  clearSkyRadiation,
  diurnalShape,
  solarHour,
  sunriseHour,
} from '../src/weather-model';

const FARM = { lat: 52.3, lng: 17 };
const MIDSUMMER_MIDNIGHT_UTC = Date.UTC(2026, 6, 15);
const TEN_MINUTES = 600_000;

function dayOfReadings(seed: number, start = MIDSUMMER_MIDNIGHT_UTC): WeatherReading[] {
  const model = new WeatherModel(FARM, seed);
  return Array.from({ length: 144 }, (_, step) => model.readingAt(start + step * TEN_MINUTES));
}

const hourOf = (reading: WeatherReading) => solarHour(reading.ts, FARM.lng);

describe('weather model', () => {
  it('replays the same readings for the same seed', () => {
    expect(dayOfReadings(5)).toEqual(dayOfReadings(5));
    expect(dayOfReadings(5)).not.toEqual(dayOfReadings(6));
  });

  it('is coldest around sunrise and warmest mid-afternoon, with humidity moving the other way', () => {
    const sunrise = sunriseHour(FARM.lat, 196);
    expect(sunrise).toBeGreaterThan(3);
    expect(sunrise).toBeLessThan(5);
    // Averaged by solar hour over a month, so the drift from one day's weather to the next evens out.
    const model = new WeatherModel(FARM, 3);
    const byHour = Array.from({ length: 24 }, () => ({ temperature: 0, humidity: 0 }));
    for (let step = 0; step < 30 * 144; step += 1) {
      const reading = model.readingAt(MIDSUMMER_MIDNIGHT_UTC + step * TEN_MINUTES);
      const bucket = byHour[Math.floor(hourOf(reading))]!;
      bucket.temperature += reading.temperature;
      bucket.humidity += reading.humidity;
    }
    const temperatures = byHour.map((bucket) => bucket.temperature);
    const coldestHour = temperatures.indexOf(Math.min(...temperatures));
    const warmestHour = temperatures.indexOf(Math.max(...temperatures));
    expect(Math.abs(coldestHour + 0.5 - sunrise)).toBeLessThan(1.5);
    expect(warmestHour).toBeGreaterThanOrEqual(13);
    expect(warmestHour).toBeLessThanOrEqual(16);
    expect(byHour[coldestHour]!.humidity).toBeGreaterThan(byHour[warmestHour]!.humidity);
    expect((temperatures[warmestHour]! - temperatures[coldestHour]!) / 30 / 6).toBeGreaterThan(4);
  });

  it('shapes the day from −1 at sunrise to +1 at 15:00', () => {
    expect(diurnalShape(4, 4)).toBeCloseTo(-1, 6);
    expect(diurnalShape(15, 4)).toBeCloseTo(1, 6);
    expect(diurnalShape(28 - 24, 4)).toBeCloseTo(-1, 6);
    expect(diurnalShape(22, 4)).toBeLessThan(diurnalShape(18, 4));
  });

  it('has no sunshine at night and strong sunshine at a summer noon, weaker in winter', () => {
    const noonUtc = MIDSUMMER_MIDNIGHT_UTC + (12 - FARM.lng / 15) * 3_600_000;
    expect(clearSkyRadiation(FARM, MIDSUMMER_MIDNIGHT_UTC)).toBe(0);
    expect(clearSkyRadiation(FARM, noonUtc)).toBeGreaterThan(750);
    expect(clearSkyRadiation(FARM, noonUtc)).toBeLessThan(1100);
    expect(clearSkyRadiation(FARM, noonUtc - 182 * 86_400_000)).toBeLessThan(400);
    for (const reading of dayOfReadings(4).filter((each) => Math.abs(hourOf(each) - 0.5) < 1)) {
      expect(reading.solarRadiation).toBe(0);
    }
  });

  it('sends every field the server needs for Penman-Monteith, within the contract', () => {
    for (const reading of dayOfReadings(8)) {
      const message = WeatherMessageSchema.parse({ v: 1, ...reading });
      expect(message).toMatchObject({
        temperature: expect.any(Number),
        humidity: expect.any(Number),
        wind: expect.any(Number),
        solarRadiation: expect.any(Number),
        rain: expect.any(Number),
      });
      expect(message.wind).toBeLessThanOrEqual(8);
    }
  });

  it('brings occasional showers, with rain counted since the previous reading', () => {
    const model = new WeatherModel(FARM, 11);
    const month = Array.from({ length: 30 * 24 }, (_, hour) =>
      model.readingAt(MIDSUMMER_MIDNIGHT_UTC + hour * 3_600_000),
    );
    const wet = month.filter((reading) => reading.rain > 0);
    expect(wet.length).toBeGreaterThan(3);
    expect(wet.length).toBeLessThan(month.length / 4);
    expect(month[0]!.rain).toBe(0);
  });

  it('lets stations of one region share the character of each day', () => {
    const a = new WeatherModel(FARM, 1, 99).readingAt(MIDSUMMER_MIDNIGHT_UTC + 14 * 3_600_000);
    const b = new WeatherModel(FARM, 2, 99).readingAt(MIDSUMMER_MIDNIGHT_UTC + 14 * 3_600_000);
    expect(Math.abs(a.temperature - b.temperature)).toBeLessThan(1);
  });
});
