import { PROTOCOL_VERSION, TELEMETRY_INTERVAL_MS, TelemetryMessageSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { simulateDay } from '../src/simulated-day';

const START = Date.UTC(2026, 5, 1);
const DAY_MS = 86_400_000;

describe('a simulated day', () => {
  const day = simulateDay({ start: START, seed: 3 });

  it('reports within the day, every timestamp after the one before, each valid by the protocol', () => {
    expect(day[0]!.ts).toBe(START);
    expect(day.at(-1)!.ts).toBeLessThan(START + DAY_MS);
    for (let index = 1; index < day.length; index += 1) expect(day[index]!.ts).toBeGreaterThan(day[index - 1]!.ts);
    for (const report of day) TelemetryMessageSchema.parse({ v: PROTOCOL_VERSION, ...report });
  });

  it('moves about 60 % of the day, reporting every 5 s then and every 60 s at rest, a few ms late', () => {
    let movingMs = 0;
    for (let index = 1; index < day.length; index += 1) {
      const previous = day[index - 1]!;
      const gap = day[index]!.ts - previous.ts;
      const moving = previous.status === 'front' || previous.status === 'back';
      if (moving) movingMs += gap;
      const interval = moving ? TELEMETRY_INTERVAL_MS.moving : TELEMETRY_INTERVAL_MS.resting;
      // A command changing the motion is reported at once, before the interval is over.
      if (day[index]!.status === previous.status) {
        expect(gap).toBeGreaterThanOrEqual(interval);
        expect(gap).toBeLessThanOrEqual(interval + 3);
      }
    }
    expect(movingMs / DAY_MS).toBeGreaterThan(0.5);
    expect(movingMs / DAY_MS).toBeLessThan(0.7);
    expect(day.length).toBeGreaterThan(9000);
    expect(day.length).toBeLessThan(13_000);
  });

  it('is the same day again from the same seed, another from another', () => {
    expect(simulateDay({ start: START, seed: 3 })).toEqual(day);
    expect(simulateDay({ start: START, seed: 4 })).not.toEqual(day);
  });
});
