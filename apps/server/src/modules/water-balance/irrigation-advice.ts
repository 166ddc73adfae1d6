/**
 * When water is next needed and how much: forward stepping of the FAO-56 chapter 8 balance over the
 * coming days ("Forecasting or allocating irrigations", Example 38), and the doses that refill the
 * root zone to field capacity.
 */
import { PASS_NET_DEPTH_LIMIT_MM } from '@pivot/contracts';
import type { NumberSeries, SeasonCurves } from './water-balance';

/** Share of the water a machine applies that reaches the root zone, unless the season sets its own. */
export const DEFAULT_APPLICATION_EFFICIENCY = 0.85;

/** The coming days; element 0 is the day after the last one balanced. */
export type Outlook = {
  cropEvapotranspiration: NumberSeries;
  effectiveRain: NumberSeries;
  totalAvailableWater: NumberSeries;
  readilyAvailableWater: NumberSeries;
};

export type IrrigationNeed = {
  /** 0: the day after the last one balanced. */
  daysAhead: number;
  /** The depletion that day after its early rain, mm: the net dose that refills the root zone to field capacity. */
  netDose: number;
};

/**
 * Steps on from a depletion at the end of a day: water is due early on the first day whose
 * depletion, after that day's rain, has reached its RAW (Example 38: "Irrigation is required when
 * Dr,i ≥ RAW"). Until then Ks is 1, so each day adds its ETc. Null when the outlook ends first.
 */
export function nextIrrigation(depletion: number, outlook: Outlook): IrrigationNeed | null {
  let current = depletion;
  for (let day = 0; day < outlook.cropEvapotranspiration.length; day += 1) {
    const start = Math.max(0, current - outlook.effectiveRain[day]!);
    if (start > 0 && start >= outlook.readilyAvailableWater[day]!) return { daysAhead: day, netDose: start };
    current = Math.min(outlook.totalAvailableWater[day]!, start + outlook.cropEvapotranspiration[day]!);
  }
  return null;
}

/** The coming days `expectedDepletions` looks at: the longest a program from the advice looks ahead. */
export const EXPECTED_DEPLETION_DAYS = 14;

/**
 * The depletion expected early on each of the coming days, after that day's rain and before any
 * water, mm: element 0 is the day after the last one balanced. It steps as `nextIrrigation` does
 * (so the element of the day water is due is its net dose), and past RAW the crop takes Ks · ETc
 * (Eq. 84), so a dose for a later day is not overstated. As many days as the outlook holds, at most `days`.
 */
export function expectedDepletions(depletion: number, outlook: Outlook, days = EXPECTED_DEPLETION_DAYS): number[] {
  return expectedDays(depletion, outlook, days).map((day) => day.start);
}

/** A coming day as stepped: the depletion early in it (after its rain), its Ks, and the depletion at its end without water. */
export type ExpectedDay = { start: number; stress: number; end: number };

/** The coming days as `expectedDepletions` steps them, each with its Ks and ending depletion (the season series' forecast). */
export function expectedDays(depletion: number, outlook: Outlook, days: number): ExpectedDay[] {
  const expected: ExpectedDay[] = [];
  let current = depletion;
  for (let day = 0; day < Math.min(days, outlook.cropEvapotranspiration.length); day += 1) {
    const start = Math.max(0, current - outlook.effectiveRain[day]!);
    const total = outlook.totalAvailableWater[day]!;
    const readily = outlook.readilyAvailableWater[day]!;
    const stress = start > readily && total > readily ? Math.max(0, (total - start) / (total - readily)) : 1;
    current = Math.min(total, start + stress * outlook.cropEvapotranspiration[day]!);
    expected.push({ start, stress, end: current });
  }
  return expected;
}

/** `nextIrrigation` for every cell of a run; -1 where no water is due within the outlook. */
export function nextIrrigationOfCells(
  depletion: NumberSeries,
  outlook: Outlook,
): { daysAhead: Int32Array; netDose: Float32Array } {
  const daysAhead = new Int32Array(depletion.length).fill(-1);
  const netDose = new Float32Array(depletion.length);
  for (let cell = 0; cell < depletion.length; cell += 1) {
    const need = nextIrrigation(depletion[cell]!, outlook);
    if (need === null) continue;
    daysAhead[cell] = need.daysAhead;
    netDose[cell] = need.netDose;
  }
  return { daysAhead, netDose };
}

/**
 * The coming days from season curves that run on past the last balanced day (the coming days'
 * weather appended after the measured days, coming-days.ts). `fromDay` is the first season day of
 * the outlook; it ends with the season's last day.
 */
export function outlookFromCurves(curves: SeasonCurves, fromDay: number): Outlook {
  const from = Math.max(0, fromDay - 1);
  const to = Math.max(from, Math.min(curves.days, curves.lastSeasonDay));
  return {
    cropEvapotranspiration: curves.cropEvapotranspiration.subarray(from, to),
    effectiveRain: curves.effectiveRain.subarray(from, to),
    totalAvailableWater: curves.totalAvailableWater.subarray(from, to),
    readilyAvailableWater: curves.readilyAvailableWater.subarray(from, to),
  };
}

export type IrrigationDoses = {
  /** mm that must reach the root zone in this pass: the depletion, at most `PASS_NET_DEPTH_LIMIT_MM`. */
  netDose: number;
  /** mm of the depletion left for the next pass (0 when this one refills it). */
  restDose: number;
  /** mm the machine must apply: net ÷ efficiency. */
  grossDose: number;
  /** The percent timer that applies the gross dose; null where the machine's depth at 100 % is unknown. */
  percentTimer: number | null;
};

/**
 * The percent timer that applies a gross dose, %, from the depth the machine applies at 100 %
 * (its fastest): depth is inversely proportional to the setting. A dose below that depth cannot
 * be applied in one pass; 100 % (the least the machine can give) is answered then.
 */
export function percentTimerFor(grossDose: number, depthAtFullSpeed: number): number {
  if (grossDose <= depthAtFullSpeed) return 100;
  return (100 * depthAtFullSpeed) / grossDose;
}

/** The doses that refill a depletion (mm), one pass giving at most `PASS_NET_DEPTH_LIMIT_MM` of it. */
export function irrigationDoses(
  depletion: number,
  efficiency: number,
  depthAtFullSpeed: number | null,
): IrrigationDoses {
  const netDose = Math.min(depletion, PASS_NET_DEPTH_LIMIT_MM);
  const grossDose = netDose / efficiency;
  return {
    netDose,
    restDose: depletion - netDose,
    grossDose,
    percentTimer: depthAtFullSpeed === null || grossDose <= 0 ? null : percentTimerFor(grossDose, depthAtFullSpeed),
  };
}
