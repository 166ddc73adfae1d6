/**
 * The autopilot's plan for the coming days (docs/autopilot.md, "The plan"): the passes it would
 * start, which sectors, when, how much water and at what cost, found by asking the decision
 * itself at each moment a pass comes due. After a planned pass its sectors are taken as refilled
 * and due again once their crop has used their RAW at the day's ETc: the further a pass, the more
 * it is an estimate, and the plan says which ones are.
 */
import type { Decision, DecisionInput, StartDecision, TimingDecision } from './decide';
import { PLANNING_HOURS, decideNext } from './decide';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** The least ETc a sector's refill is spread over, mm/day: a sector that uses nothing is not planned again. */
const LEAST_ETC_MM = 0.1;
/** At most this many passes are planned: a week of daily passes and some. */
const MOST_PASSES = 10;

export type PlannedPass = {
  /** When the pass starts, and the latest start that still waters in time. */
  at: number;
  dueAt: number;
  late: boolean;
  areas: string[];
  waterM3: number;
  waterMm: number;
  /** The tariff's zone and price at the start; null without a tariff. */
  zone: StartDecision['zone'];
  /** The pump's energy over the revolution, kWh, and its cost; null while the pump's power or the revolution is unknown. */
  energyKwh: number | null;
  cost: number | null;
  /** After an earlier planned pass: its sectors' dates are estimated. */
  estimated: boolean;
  /** The decision as the autopilot would take it when the pass comes due. */
  decision: Decision;
};

export type PlanOptions = {
  /** Hours a revolution takes (the program from the advice); null while the machine's pace is unknown. */
  revolutionHours: number | null;
  /** The pump's power, kW; null when the farmer has not said. */
  pumpKw: number | null;
  /** Each sector's ETc, mm/day, for when it is due again after a pass. */
  etcMm: ReadonlyMap<string, number>;
  days: number;
  /**
   * The autopilot's own pass going on now (or its last, ended after the balance's day): when its
   * revolution ends and the sectors it waters. Nothing is planned before it ends, and its sectors
   * are taken as refilled then.
   */
  running?: { until: number; areas: readonly string[] } | null;
};

/** When a timing decision starts its pass. */
function startOf(timing: TimingDecision, now: number): number {
  if (timing.kind === 'start') return timing.at;
  if (timing.kind === 'wait') return timing.until;
  return now;
}

/**
 * The passes the autopilot would start from `input.now` through `days` days, in order. The
 * machine is taken as online, idle and unpaused (today's refusal or pause is the decision of
 * now, shown apart), the pump group as free, and no wind or frost limit is forecast.
 */
export function planComingPasses(input: DecisionInput, options: PlanOptions): PlannedPass[] {
  const end = input.now + options.days * DAY_MS;
  const rules = { ...input.rules, wind: null, frost: null, pumpGroup: null };
  const machine = { ...input.machine, online: true, alarm: false, openIncident: null, watering: null, pausedBy: null };
  const refill = (area: DecisionInput['areas'][number], at: number) => ({
    ...area,
    depletionMm: 0,
    triggerAt: at + (area.rawMm / Math.max(options.etcMm.get(area.name) ?? 0, LEAST_ETC_MM)) * DAY_MS,
  });
  const running = options.running ?? null;
  let areas = input.areas.map((area) =>
    running !== null && running.areas.includes(area.name) ? refill(area, running.until) : area,
  );
  let cursor = running === null ? input.now : Math.max(input.now, running.until);
  let usedM3 = input.season.usedM3;
  let usedMm = input.season.usedMm;
  // After a pass going on, every date is estimated from the crop's use of water.
  let estimated = running !== null;
  const passes: PlannedPass[] = [];
  while (cursor < end && passes.length < MOST_PASSES) {
    const decision = decideNext({
      ...input,
      now: cursor,
      rules,
      machine,
      areas,
      station: null,
      lastSkip: null,
      season: { usedM3, usedMm },
      pump: { watering: [], due: [] },
      // The plan says when it would water: the advice's program is taken as ready then.
      programReady: true,
    });
    if (decision.kind === 'not_due') {
      const nextStart = Math.min(
        ...areas.flatMap((area) => (area.triggerAt === null ? [] : [area.triggerAt - area.armHours * HOUR_MS])),
      );
      if (!Number.isFinite(nextStart)) break;
      // Looked at again when its latest start comes within the planning horizon.
      cursor = Math.max(cursor + HOUR_MS, nextStart - PLANNING_HOURS * HOUR_MS);
      continue;
    }
    if (decision.kind === 'skip_rain') {
      cursor += (rules.rainSkip?.withinHours ?? PLANNING_HOURS) * HOUR_MS;
      continue;
    }
    const timing: TimingDecision | null =
      decision.kind === 'reconcile'
        ? decision.then
        : decision.kind === 'start' || decision.kind === 'wait' || decision.kind === 'queue_pump'
          ? decision
          : null;
    if (timing === null) break;
    const at = startOf(timing, cursor);
    if (at >= end) break;
    const zone = timing.kind === 'queue_pump' ? null : timing.zone;
    const energyKwh =
      options.pumpKw === null || options.revolutionHours === null ? null : options.pumpKw * options.revolutionHours;
    passes.push({
      at,
      dueAt: timing.dueAt,
      late: timing.late,
      areas: timing.areas,
      waterM3: timing.water.m3,
      waterMm: timing.water.mm,
      zone,
      energyKwh,
      cost: energyKwh === null ? null : energyKwh * (zone?.pricePerKwh ?? 0),
      estimated,
      decision,
    });
    usedM3 += timing.water.m3;
    usedMm += timing.water.mm;
    // The pass refills its sectors: each is due again once its crop has used its RAW.
    areas = areas.map((area) => (timing.areas.includes(area.name) ? refill(area, at + area.armHours * HOUR_MS) : area));
    estimated = true;
    cursor = at + Math.max(options.revolutionHours ?? 1, 1) * HOUR_MS;
  }
  return passes;
}
