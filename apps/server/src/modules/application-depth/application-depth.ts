import { PERCENT_TIMER_RANGE } from '@pivot/contracts';
import { MAX_REPORT_GAP_MS } from '../watermap';

/** A report as the learning reads it: time (ms), status, heading (°), watering arm (m), speed setting (%), flow (m³/h). */
export type MotionReport = {
  ts: number;
  status: string;
  angle: number;
  distance: number;
  speed: number;
  flow: number;
};

/**
 * Pairs of reports further apart than this are a gap, not a measurement: the watermap's own
 * limit, so every pair it counts as watering is one the depth is learned from (a stop or a change
 * of setting between two reports is reported at once, so it shows in the pair's ends).
 */
const LONGEST_PAIR_MS = MAX_REPORT_GAP_MS;
/** Fewer pairs, or less time watering and moving than this, and nothing is learned. */
export const LEAST_LEARNING_PAIRS = 20;
const LEAST_LEARNING_MS = 10 * 60_000;

/** What a machine's reports tell of it at 100 %; the numbers are null with too few pairs. */
export type LearnedPace = {
  /** mm applied at 100 %. */
  depth: number | null;
  /** Hours a full circle takes at 100 %: the pace a program's time to reach a sector is measured by. */
  hoursPerCircle: number | null;
  pairs: number;
};

/** What the learning adds up over pairs of reports; sums of several stretches of reports add up. */
export type PaceSums = { volume: number; area: number; pairs: number; time: number; turnAtFullSpeed: number };

export const NO_PACE_SUMS: PaceSums = { volume: 0, area: 0, pairs: 0, time: 0, turnAtFullSpeed: 0 };

/**
 * The depth a machine applies at 100 % (its fastest), mm, from its own reports: over each pair of
 * consecutive reports moving the same way at one speed setting with water flowing, the water
 * pumped (flow × time) and the area the arm would have swept in that time at 100 % (the angular
 * speed scaled by 100 / setting, over the circle of the watering arm). The depth is the ratio of
 * their sums: every second of watering weighs the same. The same pairs' turns, scaled to 100 %,
 * over their time give its hours per circle at 100 %.
 */
export function learnDepthAtFullSpeed(reports: readonly MotionReport[]): LearnedPace {
  return paceFromSums(paceSums(reports));
}

/** The sums of `learnDepthAtFullSpeed` over one stretch of consecutive reports, added to `to`. */
export function paceSums(reports: readonly MotionReport[], to: PaceSums = NO_PACE_SUMS): PaceSums {
  let { volume, area, pairs, time, turnAtFullSpeed } = to;
  for (let index = 1; index < reports.length; index += 1) {
    const a = reports[index - 1]!;
    const b = reports[index]!;
    const span = b.ts - a.ts;
    if (span <= 0 || span > LONGEST_PAIR_MS) continue;
    if (a.status !== b.status || (a.status !== 'front' && a.status !== 'back')) continue;
    if (a.speed !== b.speed || a.speed <= 0 || a.flow <= 0 || b.flow <= 0) continue;
    // The arm's turn between them, the short way round (front: clockwise).
    const turn = Math.abs(((((b.angle - a.angle) % 360) + 540) % 360) - 180);
    if (turn === 0) continue;
    const hours = span / 3_600_000;
    const radius = (a.distance + b.distance) / 2;
    volume += ((a.flow + b.flow) / 2) * hours;
    // The share of the circle swept at 100 %: the turn scaled by 100 / setting.
    area += ((turn * (100 / a.speed)) / 360) * Math.PI * radius * radius;
    turnAtFullSpeed += turn * (100 / a.speed);
    pairs += 1;
    time += span;
  }
  return { volume, area, pairs, time, turnAtFullSpeed };
}

/** The pace the sums give; null numbers from too few pairs or too little time watering. */
export function paceFromSums({ volume, area, pairs, time, turnAtFullSpeed }: PaceSums): LearnedPace {
  if (pairs < LEAST_LEARNING_PAIRS || time < LEAST_LEARNING_MS || area <= 0) {
    return { depth: null, hoursPerCircle: null, pairs };
  }
  return { depth: (volume / area) * 1000, hoursPerCircle: (360 * time) / turnAtFullSpeed / 3_600_000, pairs };
}

/**
 * Hours a circle takes at 100 % from the depth applied there (mm) and the flow pumped (m³/h): the
 * water of a circle (that depth over the arm's circle) over the flow. For a machine whose depth an
 * administrator set and whose reports do not yet give its pace; null while it pumps nothing.
 */
export function hoursPerCircleFromFlow(depthAtFullSpeed: number, armLength: number, flow: number): number | null {
  if (flow <= 0 || armLength <= 0) return null;
  return ((depthAtFullSpeed / 1000) * Math.PI * armLength * armLength) / flow;
}

/**
 * The percent timer that applies a gross dose (mm) with a machine that applies `depthAtFullSpeed`
 * at 100 %: the depth is inversely proportional to the setting. Held to the machine's range
 * (`PERCENT_TIMER_RANGE`): a dose below the depth at 100 % is given at 100 % (more than the dose:
 * the least the machine can give in a pass); a dose beyond the depth at the slowest setting is
 * given in several equal passes, each at the timer that applies its share.
 */
export function percentTimerPlan(
  grossDose: number,
  depthAtFullSpeed: number,
): { percentTimer: number; passes: number } {
  const [slowest, fastest] = PERCENT_TIMER_RANGE;
  const mostInOnePass = (depthAtFullSpeed * fastest) / slowest;
  const passes = Math.max(1, Math.ceil(grossDose / mostInOnePass - 1e-9));
  const timer = (fastest * depthAtFullSpeed * passes) / grossDose;
  return { percentTimer: Math.min(fastest, Math.max(slowest, timer)), passes };
}
