/**
 * When water is next needed and how much: forward stepping of the FAO-56 chapter 8 balance over the
 * coming days ("Forecasting or allocating irrigations", Example 38), and the doses that refill the
 * root zone to field capacity.
 */
import { seasonLength } from './crop-coefficient';
import {
  depletionFractionForEvapotranspiration,
  readilyAvailableWater,
  rootDepthOnDay,
  totalAvailableWater,
} from './root-zone';
import type { SoilWater } from './soil-table';
import type { NumberSeries, SeasonCrop, SeasonCurves } from './water-balance';

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
 * The coming days from season curves that run on past the last balanced day with a forecast's
 * ET0 and rain (weather days appended after the measured ones). `fromDay` is the first season day
 * of the outlook; it ends with the season's last day.
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

/**
 * The mean ETc (Kc · ET0, without stress) of the `window` days ending on season day `lastDay`,
 * mm/day. Where `reported` is given, only the days it marks (those the station reported) count:
 * a day without readings has no ET0, and counting it as 0 would push the next irrigation out.
 * None reported in the window gives 0 (nothing foreseen; the answer says the days are missing).
 */
export function meanRecentEvapotranspiration(
  curves: SeasonCurves,
  lastDay: number,
  window = 7,
  reported?: ArrayLike<boolean>,
): number {
  const last = Math.min(lastDay, curves.days);
  const first = Math.max(1, last - window + 1);
  let sum = 0;
  let counted = 0;
  for (let day = first; day <= last; day += 1) {
    if (reported && !reported[day - 1]) continue;
    sum += curves.cropEvapotranspiration[day - 1]!;
    counted += 1;
  }
  return counted === 0 ? 0 : sum / counted;
}

/**
 * The coming days without a forecast service: the same ETc every day (the last 7 days' mean) and
 * no rain, from season day `fromDay` to the end of the season. The roots go on deepening; p
 * follows that ETc unless it was given.
 */
export function meanEvapotranspirationOutlook(
  crop: SeasonCrop,
  soil: SoilWater,
  fromDay: number,
  meanEvapotranspiration: number,
): Outlook {
  const { stages, rootDepth } = crop.parameters;
  const days = Math.max(0, seasonLength(stages) - fromDay + 1);
  const fraction = crop.adjustDepletionFraction
    ? depletionFractionForEvapotranspiration(crop.parameters.depletionFraction, meanEvapotranspiration)
    : crop.parameters.depletionFraction;
  const total = new Float64Array(days);
  const readily = new Float64Array(days);
  for (let index = 0; index < days; index += 1) {
    total[index] = totalAvailableWater(soil, rootDepthOnDay(rootDepth, stages, fromDay + index));
    readily[index] = readilyAvailableWater(fraction, total[index]!);
  }
  return {
    cropEvapotranspiration: new Float64Array(days).fill(meanEvapotranspiration),
    effectiveRain: new Float64Array(days),
    totalAvailableWater: total,
    readilyAvailableWater: readily,
  };
}

export type IrrigationDoses = {
  /** mm that must reach the root zone. */
  netDose: number;
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

export function irrigationDoses(netDose: number, efficiency: number, depthAtFullSpeed: number | null): IrrigationDoses {
  const grossDose = netDose / efficiency;
  return {
    netDose,
    grossDose,
    percentTimer: depthAtFullSpeed === null || grossDose <= 0 ? null : percentTimerFor(grossDose, depthAtFullSpeed),
  };
}
