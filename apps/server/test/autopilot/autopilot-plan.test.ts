import { TARIFF_PRESETS } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { planComingPasses } from '../../src/modules/autopilot/autopilot-plan';
import { HOUR, area, at, input, rules } from './fixtures';

const DAY = 24 * HOUR;

describe("the autopilot's plan for the coming days", () => {
  it('plans the pass due tonight in the cheap zone, priced by the pump, then the next once the crop has used its RAW', () => {
    const plan = planComingPasses(
      input({
        now: at('16:00'),
        // Its trigger at 03:00 tomorrow, 2 h of the arm away: to start by 01:00.
        areas: [area({ triggerAt: at('23:00') + 4 * HOUR })],
        rules: rules({ tariff: TARIFF_PRESETS.G12 }),
      }),
      { revolutionHours: 20, pumpKw: 15, etcMm: new Map([['North', 6.5]]), days: 14 },
    );
    expect(plan.length).toBeGreaterThanOrEqual(2);
    const [first, second] = plan;
    // Due by 01:00: the night zone from 22:00 waters in time, at 0.60 instead of 1.10 PLN/kWh.
    expect(first).toMatchObject({ at: at('22:00'), areas: ['North'], late: false, estimated: false });
    expect(first!.zone).toMatchObject({ zone: 'night', pricePerKwh: 0.6 });
    expect(first!.waterM3).toBeCloseTo(800, 6);
    expect(first!.energyKwh).toBe(300);
    expect(first!.cost).toBeCloseTo(180, 6);
    // Refilled at 00:00 (2 h of the arm after 22:00), due again 52 ÷ 6.5 = 8 days later, to start 2 h before.
    expect(second!.estimated).toBe(true);
    expect(second!.dueAt).toBe(at('22:00') + 8 * DAY);
    expect(second!.at).toBeLessThanOrEqual(second!.dueAt);
    expect(second!.zone?.zone).toBe('night');
  });

  it("plans nothing before the autopilot's own pass going on ends, and its sectors from its end", () => {
    const plan = planComingPasses(input({ now: at('16:00'), areas: [area({ triggerAt: at('23:00') + 4 * HOUR })] }), {
      revolutionHours: 20,
      pumpKw: null,
      etcMm: new Map([['North', 6.5]]),
      days: 14,
      running: { until: at('16:00') + 10 * HOUR, areas: ['North'] },
    });
    // Refilled when the pass ends, due again 52 ÷ 6.5 = 8 days later, to start 2 h of the arm before.
    expect(plan[0]).toMatchObject({ areas: ['North'], estimated: true });
    expect(plan[0]!.dueAt).toBe(at('16:00') + 10 * HOUR + 8 * DAY - 2 * HOUR);
  });

  it('plans nothing for a machine whose sectors are not due within the days asked, and leaves the cost out without a pump power', () => {
    expect(
      planComingPasses(input({ areas: [area({ triggerAt: at('12:00') + 9 * DAY })] }), {
        revolutionHours: 20,
        pumpKw: null,
        etcMm: new Map(),
        days: 7,
      }),
    ).toEqual([]);
    const [pass] = planComingPasses(input(), { revolutionHours: 20, pumpKw: null, etcMm: new Map(), days: 7 });
    expect(pass).toMatchObject({ energyKwh: null, cost: null, zone: null });
  });

  it('stops at the allowance in auto, and skips the day the forecast brings rain enough', () => {
    const capped = planComingPasses(
      input({ rules: rules({ allowance: { unit: 'm3', amount: 1000 } }), season: { usedM3: 500, usedMm: 1 } }),
      { revolutionHours: 20, pumpKw: 15, etcMm: new Map([['North', 10]]), days: 14 },
    );
    expect(capped).toEqual([]);
    const rainy = planComingPasses(
      input({
        areas: [area({ triggerAt: at('12:00') + DAY })],
        forecastRain: Array.from({ length: 24 }, (_, hour) => ({ at: at('14:00') + hour * HOUR, mm: 1 })),
      }),
      { revolutionHours: 20, pumpKw: 15, etcMm: new Map([['North', 5]]), days: 3 },
    );
    expect(rainy[0]!.at).toBeGreaterThanOrEqual(at('14:00') + DAY);
  });
});
