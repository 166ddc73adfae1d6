import { METRES_PER_DEGREE, type WatermapQuery, type WatermapResponse, parseDottedDate } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { SignedInUser } from '../../http/request-context';
import { addDays, localMidnight } from '../../time/local-day';
import type { SprinklersService } from '../sprinklers';
import type { StoredReports } from '../telemetry';
import { type AppliedCell, type WaterTimes, waterTimesOfDay } from './applied-water';
import { type WaterAccounting, WATER_GRID_STEP_M } from './water-accounting';
import { type DayOfYear, dayOfYear } from './day-of-year';
import { cellNumber, cellOfNumber } from './round-grid';
import { StoredWaterYears } from './stored-water-years';
import { type RunningSlice, runningSumsChanged } from './watermap.repository';

const LONGEST_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** A cell's water day by day: `daily[i]` is the mm of the i-th day of the range asked for. */
export type CellDailyWater = { x: number; y: number; daily: Float64Array };

type LatLng = { lat: number; lng: number };

/** A point `east` and `north` cells from the machine's centre: latitude and longitude to 7 decimals (1 cm). */
function gridPoint(centre: LatLng, east: number, north: number): [number, number] {
  const metresToLat = 1 / METRES_PER_DEGREE;
  const metresToLng = metresToLat / Math.cos((centre.lat * Math.PI) / 180);
  return [
    round(centre.lat + north * WATER_GRID_STEP_M * metresToLat, 7),
    round(centre.lng + east * WATER_GRID_STEP_M * metresToLng, 7),
  ];
}

/** A cell centre's latitude and longitude, as the watermap serves them (7 decimals). */
export function cellCentre(centre: LatLng, x: number, y: number): [number, number] {
  return gridPoint(centre, x + 0.5, y + 0.5);
}

/**
 * A cell's corners as [latitude, longitude], counter-clockwise from its south-west one: the
 * square the watermap's depth covers.
 */
export function cellCorners(centre: LatLng, x: number, y: number): [number, number][] {
  return [
    gridPoint(centre, x, y),
    gridPoint(centre, x + 1, y),
    gridPoint(centre, x + 1, y + 1),
    gridPoint(centre, x, y + 1),
  ];
}

/** The least water a cell is shown with: the watermap serves mm to 0.1, and less rounds to nothing. */
export const LEAST_SHOWN_WATER_MM = 0.05;

/** Less water than this on a day is a rounding's worth, not water that fell: a micrometre. */
const LEAST_COUNTED_WATER_MM = 0.001;

function withinDays(day: DayOfYear, start: DayOfYear, stop: DayOfYear): boolean {
  const ordinal = (date: DayOfYear) => date.year * 1000 + date.day;
  return ordinal(day) >= ordinal(start) && ordinal(day) <= ordinal(stop);
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export class WatermapService {
  private readonly storedYears: StoredWaterYears;

  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: SprinklersService;
      accounting: Pick<WaterAccounting, 'uncounted'>;
      reports: Pick<StoredReports, 'ofDays'>;
      timeZone: string;
    },
  ) {
    this.storedYears = new StoredWaterYears(deps.db);
  }

  /**
   * The water a machine applied over local calendar days, per grid cell centre: lat, lng, mm;
   * up to its newest report, the water the accounting has not written yet included.
   */
  async watermap(user: SignedInUser, sprinklerId: number, query: WatermapQuery): Promise<WatermapResponse> {
    const sprinkler = await this.deps.sprinklers.accessible(user, sprinklerId);
    const first = parseDottedDate(query.start)!;
    const last = parseDottedDate(query.stop)!;
    if ((last.getTime() - first.getTime()) / DAY_MS >= LONGEST_RANGE_DAYS) throw new AppError('validation_error');
    const cells = new Map<number, { x: number; y: number; depth: number }>();
    const add = (x: number, y: number, mm: number) => {
      const key = cellNumber(x, y);
      const cell = cells.get(key);
      if (cell) cell.depth += mm;
      else cells.set(key, { x, y, depth: mm });
    };
    const [uncounted] = await Promise.all([
      this.deps.accounting.uncounted(sprinkler.internalId),
      this.storedYears.eachDayWithWater(sprinkler.internalId, first, last, (x, y, _dayIndex, mm) => add(x, y, mm)),
    ]);
    const start = dayOfYear(first);
    const stop = dayOfYear(last);
    for (const { day, cells: water } of uncounted) {
      if (!withinDays(day, start, stop)) continue;
      for (const { x, y, mm } of water) add(x, y, mm);
    }
    const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
    const data = [...cells.values()]
      .filter((cell) => cell.depth >= LEAST_SHOWN_WATER_MM)
      .map((cell): [number, number, number] => [...cellCentre(centre, cell.x, cell.y), round(cell.depth, 1)]);
    return { data, step: WATER_GRID_STEP_M };
  }

  /**
   * For another module (the advice's water balance), which has checked the user's access: each
   * watered cell's mm on every local day from `first` to `last` (UTC midnights of the dates, both
   * included; any span across years). Cells that got no water in the range are left out.
   */
  async dailyWater(machineId: string, first: Date, last: Date): Promise<{ step: number; cells: CellDailyWater[] }> {
    const dayCount = Math.round((last.getTime() - first.getTime()) / DAY_MS) + 1;
    const cells = new Map<number, CellDailyWater>();
    await this.storedYears.eachDayWithWater(machineId, first, last, (x, y, dayIndex, mm) => {
      const key = cellNumber(x, y);
      let cell = cells.get(key);
      if (!cell) {
        cell = { x, y, daily: new Float64Array(dayCount) };
        cells.set(key, cell);
      }
      cell.daily[dayIndex]! += mm;
    });
    return { step: WATER_GRID_STEP_M, cells: [...cells.values()] };
  }

  /**
   * For another module (the advice's kept water balance), which has checked the user's access:
   * the machine's rows changed after water revision `sinceRevision` (every row for -1) as running
   * sums, and the machine's highest revision (`runningSumsChanged`).
   */
  async changedWater(
    machineId: string,
    options: { firstYear: number; lastYear: number; lowerYear: number; lower: number; sinceRevision: number },
  ): Promise<{ revision: number; rows: RunningSlice[] }> {
    return runningSumsChanged(this.deps.db, machineId, options);
  }

  /**
   * For another module (the as-applied export), which has checked the user's access: the water
   * the machine applied on the local days `firstDate` to `lastDate` (YYYY-MM-DD), per cell (the
   * watermap's depths, the water not written yet included), with when its first and its last
   * water fell, to the minute. Those times come from replaying the reports of only the days that
   * hold some cell's first or last water: a season's passes begin and end on a few days. Cells
   * with less than the watermap shows are left out.
   */
  async appliedWater(machineId: string, firstDate: string, lastDate: string): Promise<AppliedCell[]> {
    const spans = new Map<number, { x: number; y: number; depthMm: number; firstDay: number; lastDay: number }>();
    await this.eachDayOfWater(machineId, firstDate, lastDate, (x, y, index, mm) => {
      const key = cellNumber(x, y);
      const span = spans.get(key);
      if (!span) spans.set(key, { x, y, depthMm: mm, firstDay: index, lastDay: index });
      else {
        span.depthMm += mm;
        span.firstDay = Math.min(span.firstDay, index);
        span.lastDay = Math.max(span.lastDay, index);
      }
    });
    const shown = [...spans.values()].filter((span) => span.depthMm >= LEAST_SHOWN_WATER_MM);
    const timesOfDay = new Map<number, Map<number, WaterTimes>>();
    for (const index of new Set(shown.flatMap((span) => [span.firstDay, span.lastDay]))) {
      timesOfDay.set(index, await this.waterTimes(machineId, addDays(firstDate, index)));
    }
    return shown.map(({ x, y, depthMm, firstDay, lastDay }) => ({
      x,
      y,
      depthMm,
      firstTs: this.firstWater(timesOfDay.get(firstDay)!, x, y, addDays(firstDate, firstDay)),
      lastTs: this.lastWater(timesOfDay.get(lastDay)!, x, y, addDays(firstDate, lastDay)),
    }));
  }

  /**
   * For another module (the as-applied export's task per day), which has checked the user's
   * access: `appliedWater` of each local day from `firstDate` to `lastDate` that has water, in
   * order, each day's times from replaying that day's reports. The range's water is held as
   * pairs of numbers (16 bytes a cell and day), not as a day's cells, until its day is given.
   */
  async *appliedWaterByDay(
    machineId: string,
    firstDate: string,
    lastDate: string,
  ): AsyncGenerator<{ date: string; cells: AppliedCell[] }> {
    const days = new Map<number, { keys: number[]; mm: number[] }>();
    await this.eachDayOfWater(machineId, firstDate, lastDate, (x, y, index, mm) => {
      let day = days.get(index);
      if (!day) days.set(index, (day = { keys: [], mm: [] }));
      day.keys.push(cellNumber(x, y));
      day.mm.push(mm);
    });
    for (const index of [...days.keys()].sort((a, b) => a - b)) {
      const { keys, mm } = days.get(index)!;
      days.delete(index);
      // A cell's written water and the part not written yet come as two pairs.
      const depths = new Map<number, number>();
      keys.forEach((key, position) => depths.set(key, (depths.get(key) ?? 0) + mm[position]!));
      const shown = [...depths].filter(([, depthMm]) => depthMm >= LEAST_SHOWN_WATER_MM);
      if (shown.length === 0) continue;
      const date = addDays(firstDate, index);
      const times = await this.waterTimes(machineId, date);
      yield {
        date,
        cells: shown.map(([key, depthMm]) => {
          const { x, y } = cellOfNumber(key);
          return {
            x,
            y,
            depthMm,
            firstTs: this.firstWater(times, x, y, date),
            lastTs: this.lastWater(times, x, y, date),
          };
        }),
      };
    }
  }

  /**
   * Each cell's water on each local day of `firstDate` to `lastDate` (its index counted from
   * `firstDate`), the written water and the part the accounting has not written yet as separate
   * calls; a rounding's worth is left out.
   */
  private async eachDayOfWater(
    machineId: string,
    firstDate: string,
    lastDate: string,
    add: (x: number, y: number, dayIndex: number, mm: number) => void,
  ): Promise<void> {
    const first = new Date(`${firstDate}T00:00:00Z`);
    const last = new Date(`${lastDate}T00:00:00Z`);
    const counted = (x: number, y: number, index: number, mm: number) => {
      if (mm >= LEAST_COUNTED_WATER_MM) add(x, y, index, mm);
    };
    const [uncounted] = await Promise.all([
      this.deps.accounting.uncounted(machineId),
      this.storedYears.eachDayWithWater(machineId, first, last, counted),
    ]);
    for (const { day, cells } of uncounted) {
      const index = Math.round((Date.UTC(day.year, 0, day.day) - first.getTime()) / DAY_MS);
      if (index < 0 || first.getTime() + index * DAY_MS > last.getTime()) continue;
      for (const { x, y, mm } of cells) counted(x, y, index, mm);
    }
  }

  private waterTimes(machineId: string, date: string): Promise<Map<number, WaterTimes>> {
    const { timeZone, reports } = this.deps;
    return waterTimesOfDay(reports, { timeZone, step: WATER_GRID_STEP_M }, machineId, date);
  }

  /** When a cell's first water of a day fell; a cell the day's replay missed (a rounding's worth of water) is given the day's start. */
  private firstWater(times: Map<number, WaterTimes>, x: number, y: number, date: string): number {
    return times.get(cellNumber(x, y))?.firstTs ?? localMidnight(this.deps.timeZone, date).getTime();
  }

  /** When a cell's last water of a day fell, or the day's end. */
  private lastWater(times: Map<number, WaterTimes>, x: number, y: number, date: string): number {
    return times.get(cellNumber(x, y))?.lastTs ?? localMidnight(this.deps.timeZone, addDays(date, 1)).getTime();
  }
}
