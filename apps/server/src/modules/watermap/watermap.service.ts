import { METRES_PER_DEGREE, type WatermapQuery, type WatermapResponse, parseDottedDate } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { SignedInUser } from '../../http/request-context';
import type { SprinklersService } from '../sprinklers';
import { type WaterAccounting, WATER_GRID_STEP_M } from './water-accounting';
import { type DayOfYear, dayOfYear } from './day-of-year';
import { type RunningSlice, runningSumsChanged, runningSumsOfYear, waterPerCell } from './watermap.repository';

const LONGEST_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** A cell's water day by day: `daily[i]` is the mm of the i-th day of the range asked for. */
export type CellDailyWater = { x: number; y: number; daily: Float64Array };

/** A cell centre's latitude and longitude, as the watermap serves them (7 decimals). */
export function cellCentre(centre: { lat: number; lng: number }, x: number, y: number): [number, number] {
  const metresToLat = 1 / METRES_PER_DEGREE;
  const metresToLng = metresToLat / Math.cos((centre.lat * Math.PI) / 180);
  return [
    round(centre.lat + (y + 0.5) * WATER_GRID_STEP_M * metresToLat, 7),
    round(centre.lng + (x + 0.5) * WATER_GRID_STEP_M * metresToLng, 7),
  ];
}

/** The least water a cell is shown with: the watermap serves mm to 0.1, and less rounds to nothing. */
export const LEAST_SHOWN_WATER_MM = 0.05;

function withinDays(day: DayOfYear, start: DayOfYear, stop: DayOfYear): boolean {
  const ordinal = (date: DayOfYear) => date.year * 1000 + date.day;
  return ordinal(day) >= ordinal(start) && ordinal(day) <= ordinal(stop);
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export class WatermapService {
  constructor(
    private readonly db: Database,
    private readonly sprinklers: SprinklersService,
    private readonly accounting: Pick<WaterAccounting, 'uncounted'>,
  ) {}

  /**
   * The water a machine applied over local calendar days, per grid cell centre: lat, lng, mm;
   * up to its newest report, the water the accounting has not written yet included.
   */
  async watermap(user: SignedInUser, sprinklerId: number, query: WatermapQuery): Promise<WatermapResponse> {
    const sprinkler = await this.sprinklers.accessible(user, sprinklerId);
    const start = dayOfYear(parseDottedDate(query.start)!);
    const stop = dayOfYear(parseDottedDate(query.stop)!);
    const span = Date.UTC(stop.year, 0, stop.day) - Date.UTC(start.year, 0, start.day);
    if (span / DAY_MS >= LONGEST_RANGE_DAYS) throw new AppError('validation_error');
    const [written, uncounted] = await Promise.all([
      waterPerCell(this.db, sprinkler.internalId, start, stop),
      this.accounting.uncounted(sprinkler.internalId),
    ]);
    const cells = new Map(written.map((cell) => [`${cell.x}:${cell.y}`, cell]));
    for (const { day, cells: water } of uncounted) {
      if (!withinDays(day, start, stop)) continue;
      for (const { x, y, mm } of water) {
        const key = `${x}:${y}`;
        const cell = cells.get(key);
        if (cell) cell.depth += mm;
        else cells.set(key, { x, y, depth: mm });
      }
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
    const cells = new Map<string, CellDailyWater>();
    const start = dayOfYear(first);
    const stop = dayOfYear(last);
    for (let year = start.year; year <= stop.year; year += 1) {
      const from = year === start.year ? start.day : 1;
      const to = year === stop.year ? stop.day : dayOfYear(new Date(Date.UTC(year, 11, 31))).day;
      const rangeIndex = Math.round((Date.UTC(year, 0, from) - first.getTime()) / DAY_MS);
      for (const row of await runningSumsOfYear(this.db, machineId, year, from, to)) {
        if (row.sums.length === 0) continue;
        const sumThrough = (day: number) =>
          day < row.offset ? 0 : row.sums[Math.min(day - row.offset, row.sums.length - 1)]!;
        const key = `${row.x}:${row.y}`;
        let cell = cells.get(key);
        if (!cell) {
          cell = { x: row.x, y: row.y, daily: new Float64Array(dayCount) };
          cells.set(key, cell);
        }
        for (let day = from; day <= to; day += 1) {
          cell.daily[rangeIndex + day - from] = sumThrough(day) - sumThrough(day - 1);
        }
      }
    }
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
    return runningSumsChanged(this.db, machineId, options);
  }
}
