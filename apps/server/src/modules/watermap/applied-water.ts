import { MACHINE_LIMITS } from '@pivot/contracts';
import { addDays, localMidnight } from '../../time/local-day';
import type { StoredReports } from '../telemetry';
import { cellNumber } from './round-grid';
import { TimeSlicer } from '../../time/time-slicer';
import {
  TOP_SPEED_STRETCH_MS,
  type WaterReport,
  type Wedge,
  narrowestWedge,
  sweptWedge,
  waterOnWedge,
} from './water-grid';

/** When water fell on a cell: its first and its last, ms. */
export type WaterTimes = { firstTs: number; lastTs: number };

/** A cell's water over a range: its depth (mm) and when its first and last water fell. */
export type AppliedCell = { x: number; y: number; depthMm: number } & WaterTimes;

/** As the accounting: a few milliseconds of work, then the event loop is handed back. */
const SLICE_MS = 5;
/** Report pairs are merged into runs of at most this long: a cell's times are given to the minute. */
const RUN_MS = 60_000;
/** A run's arm end travels no further than a plausible pair may (water-grid.ts's bound). */
const RUN_TIP_METRES = (MACHINE_LIMITS.tipSpeedMPerS * TOP_SPEED_STRETCH_MS) / 1000;

/** A stretch of consecutive watering pairs, the arm turning one way: where it began and ended, and its arc. */
type Run = { first: WaterReport; last: WaterReport; direction: -1 | 0 | 1; degrees: number };

/** Degrees from `from` to `to` the short way round: positive clockwise. */
function turn(from: WaterReport, to: WaterReport): number {
  const clockwise = (((to.angle - from.angle) % 360) + 360) % 360;
  return clockwise <= 180 ? clockwise : clockwise - 360;
}

/** The run's wedge, widened by the strip a pair in place wets on each side, so it covers every pair's. */
function runWedge(run: Run, step: number): Wedge {
  const radius = run.first.distance;
  const margin = narrowestWedge(radius, step) / 2;
  const start = run.direction < 0 ? run.last.angle : run.first.angle;
  return {
    start: (((start - margin) % 360) + 360) % 360,
    width: Math.min(360, run.degrees + 2 * margin),
    radius,
    depthMm: 1,
  };
}

/**
 * When water fell on each cell on the local day `date` (YYYY-MM-DD): the machine's reports
 * replayed as the accounting counts them (a pair watering by `sweptWedge`'s rules, a pair
 * belonging to the day of its first report), consecutive pairs merged into runs of a minute at
 * most, so a day of 5-second reports costs the geometry of 1,440 wedges, not 17,280 (a day of a
 * 520 m arm: about 30 ms, not 380).
 */
export async function waterTimesOfDay(
  reports: Pick<StoredReports, 'ofDays'>,
  { timeZone, step }: { timeZone: string; step: number },
  machineId: string,
  date: string,
): Promise<Map<number, WaterTimes>> {
  const slicer = new TimeSlicer(SLICE_MS);
  const times = new Map<number, WaterTimes>();
  const wet = async (run: Run) => {
    waterOnWedge(runWedge(run, step), step, (x, y) => {
      const key = cellNumber(x, y);
      const cell = times.get(key);
      if (cell) cell.lastTs = run.last.ts;
      else times.set(key, { firstTs: run.first.ts, lastTs: run.last.ts });
    });
    if (slicer.due()) await slicer.pause();
  };
  const dayEnd = localMidnight(timeZone, addDays(date, 1)).getTime();
  let run: Run | undefined;
  let previous: WaterReport | undefined;
  for await (const { reports: day } of reports.ofDays(machineId, date, addDays(date, 1))) {
    for (const report of day) {
      if (previous && report.ts <= previous.ts) continue;
      if (previous) {
        const pair = sweptWedge(previous, report, step);
        if (typeof pair === 'string') {
          if (run) await wet(run);
          run = undefined;
        } else {
          const degrees = turn(previous, report);
          const direction = Math.sign(degrees) as Run['direction'];
          const joins =
            run &&
            run.first.distance === previous.distance &&
            (run.direction === 0 || direction === 0 || run.direction === direction) &&
            report.ts - run.first.ts <= RUN_MS &&
            ((run.degrees + Math.abs(degrees)) * Math.PI * previous.distance) / 180 <= RUN_TIP_METRES;
          if (run && joins) {
            run = {
              ...run,
              last: report,
              direction: run.direction || direction,
              degrees: run.degrees + Math.abs(degrees),
            };
          } else {
            if (run) await wet(run);
            run = { first: previous, last: report, direction, degrees: Math.abs(degrees) };
          }
        }
      }
      if (report.ts >= dayEnd) {
        if (run) await wet(run);
        return times;
      }
      previous = report;
    }
  }
  if (run) await wet(run);
  return times;
}
