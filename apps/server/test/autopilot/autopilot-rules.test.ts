import { AutopilotRulesSchema, TARIFF_PRESETS, TariffSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { allowedAt, localClock, ruleBoundaries, tariffAt } from '../../src/modules/autopilot';
import { NEXT_DAY, TIME_ZONE, at, rules } from './fixtures';

describe("a farm's autopilot rules", () => {
  it('has defaults: every hour allowed, no tariff, 10 mm in 24 h skips, 10 m/s and 2 °C pause', () => {
    expect(AutopilotRulesSchema.parse({})).toEqual({
      allowedHours: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '24:00' }],
      tariff: null,
      rainSkip: { mm: 10, withinHours: 24 },
      wind: { maxMs: 10 },
      frost: { minC: 2 },
      allowance: null,
      pumpGroup: null,
      pumpKw: null,
    });
  });

  it('refuses a window that starts where it ends, a time that is not one, and figures out of bounds', () => {
    const refused = (input: unknown) => AutopilotRulesSchema.safeParse(input).success;
    expect(refused({ allowedHours: [{ start: '06:00', end: '06:00' }] })).toBe(false);
    expect(refused({ allowedHours: [{ start: '25:00', end: '06:00' }] })).toBe(false);
    expect(refused({ allowedHours: [{ days: [0], start: '20:00', end: '06:00' }] })).toBe(false);
    expect(refused({ allowedHours: [] })).toBe(false);
    expect(refused({ rainSkip: { mm: 0, withinHours: 24 } })).toBe(false);
    expect(refused({ wind: { maxMs: 60 } })).toBe(false);
    expect(refused({ allowance: { unit: 'l', amount: 5 } })).toBe(false);
    expect(refused({ pumpGroup: { id: 'Well 1', maxAtOnce: 0 } })).toBe(false);
    expect(
      refused({ allowedHours: [{ start: '20:00', end: '06:00' }], pumpGroup: { id: 'Well 1', maxAtOnce: 2 } }),
    ).toBe(true);
  });

  it('offers G12, C12a and C12b as tariffs the schema takes', () => {
    for (const preset of Object.values(TARIFF_PRESETS)) expect(TariffSchema.parse(preset)).toEqual(preset);
  });

  it('prices G12: the night zone 22–06 and 13–15, the day zone otherwise', () => {
    const g12 = TariffSchema.parse(TARIFF_PRESETS.G12);
    const zone = (time: string, date?: string) => tariffAt(g12, TIME_ZONE, at(time, date)).zone;
    expect(['21:59', '22:00', '23:30'].map((time) => zone(time))).toEqual(['day', 'night', 'night']);
    expect(['05:59', '06:00'].map((time) => zone(time, NEXT_DAY))).toEqual(['night', 'day']);
    expect(['12:59', '13:00', '14:59', '15:00'].map((time) => zone(time))).toEqual(['day', 'night', 'night', 'day']);
    expect(tariffAt(g12, TIME_ZONE, at('23:00'))).toEqual({ zone: 'night', pricePerKwh: 0.6 });
  });

  it('reads a window over midnight as the day it starts on', () => {
    const fridayNights = rules({ allowedHours: [{ days: [5], start: '22:00', end: '06:00' }] });
    expect(allowedAt(fridayNights, TIME_ZONE, at('23:00', '2026-07-17'))).toBe(true);
    expect(allowedAt(fridayNights, TIME_ZONE, at('05:00', '2026-07-18'))).toBe(true);
    expect(allowedAt(fridayNights, TIME_ZONE, at('05:00', '2026-07-17'))).toBe(false);
    expect(localClock(TIME_ZONE, at('05:00', '2026-07-18'))).toEqual({ weekday: 6, minutes: 300 });
  });

  it('lists where the hours or the zones change, on local time across the end of summer time', () => {
    const g12 = rules({ tariff: TARIFF_PRESETS.G12 });
    expect(ruleBoundaries(g12, TIME_ZONE, at('12:00'), at('12:00', NEXT_DAY))).toEqual([
      at('13:00'),
      at('15:00'),
      at('22:00'),
      // The default allowed hours, 00:00–24:00, end and begin again at midnight.
      at('00:00', NEXT_DAY),
      at('06:00', NEXT_DAY),
    ]);
    // 25 October 2026: CEST (UTC+2) ends at 03:00; 22:00 that day is 21:00 UTC.
    const autumn = ruleBoundaries(g12, TIME_ZONE, at('16:00', '2026-10-25'), at('23:00', '2026-10-25'));
    expect(autumn.map((instant) => new Date(instant).toISOString())).toEqual(['2026-10-25T21:00:00.000Z']);
  });
});
