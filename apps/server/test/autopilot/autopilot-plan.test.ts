import { TARIFF_PRESETS } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  type PlannedPass,
  type PumpGroupMember,
  planComingPasses,
  planPumpGroup,
} from '../../src/modules/autopilot/autopilot-plan';
import { HOUR, NEXT_DAY, area, at, input, rules } from './fixtures';

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

describe('the plan of the machines sharing a pump, made together', () => {
  const WELL = { id: 'Well 1', maxAtOnce: 1 };
  const OPTIONS = { revolutionHours: 4, pumpKw: null, etcMm: new Map([['North', 6.5]]), days: 2 };
  /** A machine of the well, its North sector to be reached by `trigger` (2 h of the arm away), idle at 14:00. */
  const member = (id: number, trigger: number, changes: Partial<PumpGroupMember> = {}): PumpGroupMember => {
    const name = `Pivot ${id}`;
    const machineInput = input({
      machine: { ...input().machine, id, name },
      areas: [area({ triggerAt: trigger })],
      rules: rules({ pumpGroup: WELL, wind: null, frost: null }),
    });
    return { id, name, input: machineInput, options: OPTIONS, ...changes };
  };
  const withWell = (changes: Partial<PumpGroupMember>, maxAtOnce: number): Partial<PumpGroupMember> => ({
    ...changes,
    input: { ...changes.input!, rules: rules({ pumpGroup: { ...WELL, maxAtOnce }, wind: null, frost: null }) },
  });
  /** Each machine's passes as [start, name of those it waited for or null]. */
  const starts = (plans: Map<number, PlannedPass[]>) =>
    new Map(
      [...plans].map(([id, passes]) => [
        id,
        passes.map((pass) => [pass.at, pass.queued?.behind.map((peer) => peer.name) ?? null]),
      ]),
    );
  /** At no instant do more than `maxAtOnce` passes of the plans hold the pump (each for its revolution). */
  const mostAtOnce = (plans: Map<number, PlannedPass[]>, hours: number) => {
    const passes = [...plans.values()].flat();
    return Math.max(
      ...passes.map(
        (pass) => passes.filter((other) => other.at <= pass.at && pass.at < other.at + hours * HOUR).length,
      ),
    );
  };

  it('on a well feeding one at a time, waters three machines due at once one after another, the most urgent first', () => {
    // All due now: Pivot 2 by 19:00 (the least slack), Pivot 3 by 20:00, Pivot 1 by 21:00.
    const plans = planPumpGroup([member(1, at('23:00')), member(2, at('21:00')), member(3, at('22:00'))]);
    expect(starts(plans)).toEqual(
      new Map([
        [1, [[at('22:00'), ['Pivot 2', 'Pivot 3']]]],
        [2, [[at('14:00'), null]]],
        [3, [[at('18:00'), ['Pivot 2']]]],
      ]),
    );
    // Pivot 1 would have started at 14:00; the pump pushed it past its latest start (21:00).
    expect(plans.get(1)![0]).toMatchObject({ dueAt: at('21:00'), late: true, queued: { wouldStartAt: at('14:00') } });
    expect(plans.get(3)![0]).toMatchObject({ late: false, queued: { wouldStartAt: at('14:00') } });
    expect(mostAtOnce(plans, 4)).toBe(1);
  });

  it('lets a well feeding two at a time take the two most urgent, the third after the first of them ends', () => {
    const plans = planPumpGroup(
      [member(1, at('23:00')), member(2, at('21:00')), member(3, at('22:00'))].map((one) => ({
        ...one,
        ...withWell(one, 2),
      })),
    );
    expect(starts(plans)).toEqual(
      new Map([
        [1, [[at('18:00'), ['Pivot 2', 'Pivot 3']]]],
        [2, [[at('14:00'), null]]],
        [3, [[at('14:00'), null]]],
      ]),
    );
    expect(mostAtOnce(plans, 4)).toBe(2);
  });

  it('holds the pump for a peer already watering until its run ends, and names it', () => {
    // Pivot 1 waters till 17:00 (the autopilot's pass: nothing of its own planned before), Pivot 3 (the farmer's) till 15:00.
    const running = { until: at('17:00'), areas: ['North'] };
    const plans = planPumpGroup([
      member(1, at('12:00') + 9 * DAY, { options: { ...OPTIONS, running }, holdsPumpUntil: at('17:00') }),
      member(2, at('21:00')),
      member(3, at('12:00') + 9 * DAY, { options: null, holdsPumpUntil: at('15:00') }),
    ]);
    expect(starts(plans)).toEqual(
      new Map([
        [1, []],
        [2, [[at('17:00'), ['Pivot 1', 'Pivot 3']]]],
      ]),
    );
    expect(plans.get(2)![0]).toMatchObject({ late: false, queued: { wouldStartAt: at('14:00') } });
  });

  it("queues passes waiting for the cheap zone: the second at the first one's end, still in the zone; one machine alone as planComingPasses", () => {
    const tariff = (one: PumpGroupMember): PumpGroupMember => ({
      ...one,
      input: {
        ...one.input,
        now: at('16:00'),
        rules: rules({ pumpGroup: WELL, wind: null, frost: null, tariff: TARIFF_PRESETS.G12 }),
      },
    });
    // At 16:00, both to start by 09:00 tomorrow or earlier, in the night zone from 22:00: Pivot 2 first (due by 07:00), Pivot 1 at its end.
    const plans = planPumpGroup([tariff(member(1, at('11:00', NEXT_DAY))), tariff(member(2, at('09:00', NEXT_DAY)))]);
    expect(starts(plans)).toEqual(
      new Map([
        [1, [[at('02:00', NEXT_DAY), ['Pivot 2']]]],
        [2, [[at('22:00'), null]]],
      ]),
    );
    expect(plans.get(1)![0]!.zone?.zone).toBe('night');
    const alone = tariff(member(2, at('09:00', NEXT_DAY)));
    expect(planPumpGroup([alone]).get(2)).toEqual(planComingPasses(alone.input, OPTIONS));
  });
});
