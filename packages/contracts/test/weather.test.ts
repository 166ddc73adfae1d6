import { describe, expect, it } from 'vitest';
import { HumiditySensorSchema, WeatherStationSchema } from '../src/weather';
import { expectRejected, expectUnknownKeyRejected } from './support';

function buildStation(overrides: Record<string, unknown> = {}) {
  return { id: 'WS-1', lat: 52.41, lng: 16.93, temperature: 18.2, humidity: 64, rainfall: 0.4, ...overrides };
}

describe('WeatherStationSchema', () => {
  it('accepts a station with the required readings only', () => {
    expect(WeatherStationSchema.parse(buildStation())).toEqual(buildStation());
  });

  it('accepts the optional wind, 7-day rainfall, ETP and expiry', () => {
    const full = buildStation({ wind: 3.2, rainfall_7d: 12, etp_7d: 24.6, expire_timestamp: Date.UTC(2026, 3, 14) });
    expect(WeatherStationSchema.parse(full)).toEqual(full);
  });

  it('accepts frost and the edges of the globe', () => {
    expect(WeatherStationSchema.safeParse(buildStation({ temperature: -12.5, lat: -90, lng: 180 })).success).toBe(true);
  });

  it.each([
    ['a numeric id', { id: 1 }],
    ['a latitude above 90', { lat: 90.1 }],
    ['a longitude below -180', { lng: -180.5 }],
    ['lat and lng as numeric strings', { lat: '52.41', lng: '16.93' }],
    ['a missing temperature', { temperature: undefined }],
    ['a missing humidity', { humidity: undefined }],
    ['a missing rainfall', { rainfall: undefined }],
    ['a null wind', { wind: null }],
    ['an ETP as text', { etp_7d: '24.6' }],
  ])('rejects %s', (_label, overrides) => {
    expectRejected(WeatherStationSchema, buildStation(overrides));
  });

  it('is strict', () => {
    expectUnknownKeyRejected(WeatherStationSchema, buildStation());
  });
});

describe('HumiditySensorSchema', () => {
  it.each([[[52.41, 16.93, 23.5]], [[52.41, 16.93, 23.5, 30]]])('accepts %j', (sensor) => {
    expect(HumiditySensorSchema.parse(sensor)).toEqual(sensor);
  });

  it.each([
    ['a pair', [52.41, 16.93]],
    ['five numbers', [52.41, 16.93, 23.5, 30, 1]],
    ['a moisture as text', [52.41, 16.93, '23.5']],
    ['a null depth', [52.41, 16.93, 23.5, null]],
    ['an object', { lat: 52.41, lng: 16.93, moisture: 23.5 }],
  ])('rejects %s', (_label, sensor) => {
    expectRejected(HumiditySensorSchema, sensor);
  });
});
