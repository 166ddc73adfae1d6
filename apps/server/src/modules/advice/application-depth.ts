import { PERCENT_TIMER_RANGE } from '@pivot/contracts';

/** A report as the learning reads it: time (ms), status, heading (°), watering arm (m), speed setting (%), flow (m³/h). */
export type MotionReport = {
  ts: number;
  status: string;
  angle: number;
  distance: number;
  speed: number;
  flow: number;
};

/** Pairs of reports further apart than this are a gap, not a measurement. */
const LONGEST_PAIR_MS = 120_000;
/** Fewer pairs, or less time watering and moving than this, and nothing is learned. */
export const LEAST_LEARNING_PAIRS = 20;
const LEAST_LEARNING_MS = 10 * 60_000;

/**
 * The depth a machine applies at 100 % (its fastest), mm, from its own reports: over each pair of
 * consecutive reports moving the same way at one speed setting with water flowing, the water
 * pumped (flow × time) and the area the arm would have swept in that time at 100 % (the angular
 * speed scaled by 100 / setting, over the circle of the watering arm). The depth is the ratio of
 * their sums: every second of watering weighs the same. Null with too few pairs.
 */
export function learnDepthAtFullSpeed(reports: readonly MotionReport[]): { depth: number | null; pairs: number } {
  let volume = 0;
  let area = 0;
  let pairs = 0;
  let time = 0;
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
    pairs += 1;
    time += span;
  }
  if (pairs < LEAST_LEARNING_PAIRS || time < LEAST_LEARNING_MS || area <= 0) return { depth: null, pairs };
  return { depth: (volume / area) * 1000, pairs };
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
