import { describe, expect, it } from 'vitest';
import {
  CONTROLLERS_CHANGED_TOPIC,
  MACHINE_LIMITS,
  MachineProgramMessageSchema,
  ReplyMessageSchema,
  TelemetryMessageSchema,
  WeatherMessageSchema,
  machineIsOnline,
  machineMayPublish,
  machineMaySubscribe,
  machinePermissions,
  parseTopic,
  topics,
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

describe('topics and what a controller may do with them', () => {
  it('reads who a topic is about: the machine, and the station, sensor or server', () => {
    expect(parseTopic(topics.telemetry('PIVOT-01'))).toEqual({
      kind: 'telemetry',
      machineId: 'PIVOT-01',
      deviceId: 'PIVOT-01',
    });
    expect(parseTopic(topics.weather('PIVOT-01', 'WS-1'))).toEqual({
      kind: 'weather',
      machineId: 'PIVOT-01',
      deviceId: 'WS-1',
    });
    expect(parseTopic(topics.soil('PIVOT-01', 'SOIL-2'))).toEqual({
      kind: 'soil',
      machineId: 'PIVOT-01',
      deviceId: 'SOIL-2',
    });
    expect(parseTopic(topics.replies('api-1', 'PIVOT-01'))).toEqual({
      kind: 'reply',
      machineId: 'PIVOT-01',
      deviceId: 'api-1',
    });
    for (const other of [
      'pivot/v1/stations/WS-1/weather',
      'pivot/v1/machines/PIVOT 01/telemetry',
      'pivot/v1/machines/PIVOT-01/stations/WS.1/weather',
      'pivot/v1/machines/PIVOT-01/telemetry/extra',
      'pivot/v1/servers/api-1/replies',
      CONTROLLERS_CHANGED_TOPIC,
      '$SYS/broker/uptime',
    ]) {
      expect(parseTopic(other), other).toBeNull();
    }
  });

  it('lets a controller publish its own machine’s topics and replies named after it, nothing else', () => {
    const own = [
      topics.presence('A'),
      topics.telemetry('A'),
      topics.program('A'),
      topics.weather('A', 'WS-9'),
      topics.soil('A', 'SOIL-9'),
      topics.replies('api-1', 'A'),
    ];
    for (const topic of own) expect(machineMayPublish('A', topic), topic).toBe(true);
    const others = [
      topics.commands('A'),
      topics.telemetry('B'),
      topics.weather('B', 'WS-9'),
      topics.replies('api-1', 'B'),
      CONTROLLERS_CHANGED_TOPIC,
      'pivot/v1/machines/A/#',
      '$SYS/broker/uptime',
      'anything/else',
    ];
    for (const topic of others) expect(machineMayPublish('A', topic), topic).toBe(false);
    expect(machinePermissions('A').publish).toEqual([
      'pivot/v1/machines/A/presence',
      'pivot/v1/machines/A/telemetry',
      'pivot/v1/machines/A/program',
      'pivot/v1/machines/A/stations/+/weather',
      'pivot/v1/machines/A/sensors/+/soil',
      'pivot/v1/servers/+/replies/A',
    ]);
  });

  it('lets a controller subscribe to its own commands only, spelled out', () => {
    expect(machineMaySubscribe('A', topics.commands('A'))).toBe(true);
    for (const filter of [
      '#',
      '$SYS/#',
      'pivot/v1/machines/+/commands',
      'pivot/v1/machines/A/#',
      topics.commands('B'),
    ]) {
      expect(machineMaySubscribe('A', filter), filter).toBe(false);
    }
  });
});

describe('machineIsOnline', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  const connected = { online: true, status: 'stop' as const, flow: 0 };

  it('holds a machine at rest online for three minutes of silence, and no longer', () => {
    expect(machineIsOnline({ ...connected, reportedAt: now - 180_000 }, now)).toBe(true);
    expect(machineIsOnline({ ...connected, reportedAt: now - 180_001 }, now)).toBe(false);
  });

  it('holds a moving or watering machine online for 15 s of silence, and no longer', () => {
    for (const last of [
      { status: 'front' as const, flow: 0 },
      { status: 'back' as const, flow: 0 },
      { status: 'stop' as const, flow: 12 },
    ]) {
      expect(machineIsOnline({ online: true, ...last, reportedAt: now - 15_000 }, now)).toBe(true);
      expect(machineIsOnline({ online: true, ...last, reportedAt: now - 15_001 }, now)).toBe(false);
    }
  });

  it('takes the broker at its word when the machine is disconnected, and trusts a connected one that has not reported yet', () => {
    expect(machineIsOnline({ ...connected, online: false, reportedAt: now }, now)).toBe(false);
    expect(machineIsOnline({ ...connected, reportedAt: null, status: null, flow: null }, now)).toBe(true);
  });
});
