import { MACHINE_LIMITS, TelemetryMessageSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { plainTelemetry } from '../../src/gateway/plain-telemetry';

const now = Date.UTC(2026, 5, 1);
const good = { v: 1, ts: now, status: 'front', angle: 137.5, distance: 402, speed: 60, pressure: 2.4, flow: 85.2 };

/** Reports the fast path must take itself: every bound at its very edge. */
const plain: Record<string, unknown>[] = [
  good,
  { ...good, status: 'stop', angle: 0, distance: 0, speed: 0, pressure: 0, flow: 0 },
  { ...good, status: 'back', angle: 359.999, distance: MACHINE_LIMITS.armLengthM, speed: 100 },
  { ...good, status: 'alarm', pressure: MACHINE_LIMITS.pressureBar, flow: MACHINE_LIMITS.flowM3h },
  { ...good, ts: MACHINE_LIMITS.earliestTs },
  { ...good, ts: MACHINE_LIMITS.latestTs },
  // JSON has a negative zero, and the schema takes it for nought.
  JSON.parse('{"v":1,"ts":1780272000000,"status":"front","angle":-0,"distance":-0,"speed":0,"pressure":0,"flow":0}'),
  // The same fields in another order: the result has the schema's order.
  { flow: 1, pressure: 1, speed: 1, distance: 1, angle: 1, status: 'front', ts: now, v: 1 },
];

/** Reports the schema takes that the fast path leaves to it. */
const forTheSchema: Record<string, unknown>[] = [
  { ...good, status: 'alarm', alarm: 'pressure_loss' },
  {
    ...good,
    position: {
      type: 'LineString',
      coordinates: [
        [17, 52],
        [17.001, 52],
      ],
    },
  },
  // A field the protocol does not know: the schema drops it.
  { ...good, firmware: '2.1' },
];

/** What the schema rejects: the fast path must never take it. */
const rejected: unknown[] = [
  // The poison reports of test/telemetry/poison-reports.test.ts and the contracts' tests.
  { ...good, distance: 1e308 },
  { ...good, distance: MACHINE_LIMITS.armLengthM + 1 },
  { ...good, pressure: 1e308 },
  { ...good, flow: 1e308 },
  { ...good, ts: 253402300800000 },
  { ...good, ts: 0 },
  { ...good, status: 'alarm', alarm: 'pressure\u0000loss' },
  { ...good, status: 'alarm', alarm: 'pressure\nloss' },
  // Just past each bound.
  { ...good, angle: 360 },
  { ...good, angle: -0.001 },
  { ...good, distance: -1e-9 },
  { ...good, speed: 100.0001 },
  { ...good, speed: -1 },
  { ...good, pressure: MACHINE_LIMITS.pressureBar + 1e-9 },
  { ...good, flow: -0.5 },
  { ...good, ts: MACHINE_LIMITS.earliestTs - 1 },
  { ...good, ts: MACHINE_LIMITS.latestTs + 1 },
  { ...good, ts: now + 0.5 },
  // Wrong types and values.
  { ...good, v: 2 },
  { ...good, v: '1' },
  { ...good, ts: String(now) },
  { ...good, status: 'running' },
  { ...good, status: 'FRONT' },
  { ...good, angle: '137.5' },
  { ...good, distance: null },
  { ...good, speed: true },
  { ...good, pressure: [2.4] },
  { ...good, flow: { value: 85 } },
  { ...good, alarm: null },
  { ...good, alarm: 7 },
  { ...good, position: null },
  // A field missing, with one of another name to keep the count at eight.
  { v: 1, ts: now, status: 'front', angle: 1, distance: 1, speed: 1, pressure: 1, flows: 1 },
  { v: 1, ts: now, status: 'front', angle: 1, distance: 1, speed: 1, pressure: 1 },
  // Not a report at all.
  null,
  42,
  'front',
  [],
  Object.values(good),
  {},
];

/** The fast path's answer must be the schema's, to the byte as stored and as set aside. */
function expectSameAsSchema(sample: unknown): void {
  const fast = plainTelemetry(sample);
  if (fast === undefined) return;
  const schema = TelemetryMessageSchema.safeParse(sample);
  expect(schema.success, JSON.stringify(sample)).toBe(true);
  expect(fast).toEqual(schema.data);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(schema.data));
}

describe('the fast path for plain telemetry reports', () => {
  it('takes a plain report at every edge of its bounds as the schema does', () => {
    for (const sample of plain) {
      expect(plainTelemetry(sample), JSON.stringify(sample)).toBeDefined();
      expectSameAsSchema(sample);
    }
  });

  it('leaves reports with an alarm, a position or a field it does not know to the schema', () => {
    for (const sample of forTheSchema) {
      expect(TelemetryMessageSchema.safeParse(sample).success).toBe(true);
      expect(plainTelemetry(sample)).toBeUndefined();
    }
  });

  it('never takes what the schema rejects', () => {
    for (const sample of rejected) {
      expect(TelemetryMessageSchema.safeParse(sample).success, JSON.stringify(sample)).toBe(false);
      expect(plainTelemetry(sample), JSON.stringify(sample)).toBeUndefined();
    }
  });

  it('agrees with the schema on 20,000 reports with random values in and out of bounds', () => {
    // A fixed seed: a failure can be replayed.
    let seed = 13;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const numbers = (edge: number) => [edge, -edge, edge + 1e-9, edge - 1e-9, random() * edge * 1.2 - edge * 0.1, 0];
    const fields: Record<string, readonly unknown[]> = {
      v: [1, 1, 1, 0, 2, '1'],
      ts: [now, now + 0.25, MACHINE_LIMITS.earliestTs - 1, MACHINE_LIMITS.latestTs, MACHINE_LIMITS.latestTs + 1, -now],
      status: ['stop', 'front', 'back', 'alarm', 'forward', ''],
      angle: [...numbers(360), 359.9999999, 360],
      distance: numbers(MACHINE_LIMITS.armLengthM),
      speed: numbers(100),
      pressure: numbers(MACHINE_LIMITS.pressureBar),
      flow: numbers(MACHINE_LIMITS.flowM3h),
    };
    let taken = 0;
    for (let index = 0; index < 20_000; index += 1) {
      const missing = random() < 0.05 ? pick(Object.keys(fields)) : undefined;
      const sample: Record<string, unknown> = Object.fromEntries(
        Object.entries(fields)
          .filter(([name]) => name !== missing)
          .map(([name, values]) => [name, pick(values)]),
      );
      if (random() < 0.05) sample.alarm = pick(['pressure_loss', 'x\u0000', 3]);
      expectSameAsSchema(sample);
      if (plainTelemetry(sample)) taken += 1;
      // And what the schema takes without an alarm or a position, the fast path takes too.
      const schema = TelemetryMessageSchema.safeParse(sample);
      if (schema.success && Object.keys(sample).length === 8) expect(plainTelemetry(sample)).toBeDefined();
    }
    expect(taken).toBeGreaterThan(100);
  });
});
