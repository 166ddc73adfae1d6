import { describe, expect, it } from 'vitest';
import {
  MACHINE_LIMITS,
  MachineProgramMessageSchema,
  ReplyMessageSchema,
  TelemetryMessageSchema,
  WeatherMessageSchema,
} from '../src/mqtt';

const report = {
  v: 1,
  ts: Date.UTC(2026, 5, 1),
  status: 'front',
  angle: 137.5,
  distance: 402,
  speed: 60,
  pressure: 2.4,
  flow: 85.2,
} as const;

describe('what a machine may report', () => {
  it('takes an ordinary report', () => {
    expect(TelemetryMessageSchema.safeParse(report).success).toBe(true);
  });

  it.each([
    ['an arm longer than any pivot', { distance: 1e308 }],
    ['an arm just past the longest', { distance: MACHINE_LIMITS.armLengthM + 1 }],
    ['a pressure no pivot holds', { pressure: 1e308 }],
    ['a flow that would overflow the water accounting', { flow: 1e308 }],
    ['a time in the year 10000', { ts: 253402300800000 }],
    ['a time before the product', { ts: 0 }],
    ['a NUL in the alarm', { status: 'alarm', alarm: 'pressure\u0000loss' }],
    ['a line break in the alarm', { status: 'alarm', alarm: 'pressure\nloss' }],
    [
      'an arm of more GPS positions than towers',
      {
        position: {
          type: 'LineString',
          coordinates: Array.from({ length: MACHINE_LIMITS.armPositions + 1 }, (_, i) => [17 + i / 1e4, 52]),
        },
      },
    ],
  ])('refuses %s', (_what, change) => {
    expect(TelemetryMessageSchema.safeParse({ ...report, ...change }).success).toBe(false);
  });

  it('keeps the longest arm and an alarm in plain words', () => {
    const longest = { ...report, status: 'alarm', distance: MACHINE_LIMITS.armLengthM, alarm: 'pressure_loss' };
    expect(TelemetryMessageSchema.safeParse(longest).success).toBe(true);
  });

  it('refuses control characters in a program name and a refusal', () => {
    const program = {
      name: 'Kukurydza\u0000',
      uploadedAt: report.ts,
      programData: { type: 'FeatureCollection', features: [] },
    };
    expect(MachineProgramMessageSchema.safeParse({ v: 1, program: { ...program, name: 'Kukurydza' } }).success).toBe(
      true,
    );
    expect(MachineProgramMessageSchema.safeParse({ v: 1, program }).success).toBe(false);
    const refusal = { v: 1, id: 'c1', ok: false, error: { code: 'busy', message: 'arm\u0007moving' } };
    expect(ReplyMessageSchema.safeParse({ ...refusal, error: { code: 'busy', message: 'arm moving' } }).success).toBe(
      true,
    );
    expect(ReplyMessageSchema.safeParse(refusal).success).toBe(false);
  });

  it('refuses a weather reading of 999 mm of rain', () => {
    const reading = { v: 1, ts: report.ts, lat: 52, lng: 17, temperature: 20, humidity: 50, rain: 0 };
    expect(WeatherMessageSchema.safeParse(reading).success).toBe(true);
    expect(WeatherMessageSchema.safeParse({ ...reading, rain: 999 }).success).toBe(false);
  });
});
