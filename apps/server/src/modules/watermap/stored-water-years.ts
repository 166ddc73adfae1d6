import type { Queryable } from '../../db/client';
import { TimeSlicer } from '../../time/time-slicer';
import { type StoredRow, storedRows } from './watermap.repository';
import { cellKey } from './water-grid';
import { dayOfYear } from './day-of-year';

/**
 * A machine's water of one year as stored, packed: cell `i` is at `xs[i]`, `ys[i]`, and its
 * days with water and their mm are `days[starts[i]]` up to `days[starts[i + 1]]` (and `mm` alike).
 */
export type WaterYear = {
  /** The machine's water revision these rows were read at (`water_cell_years.revision`). */
  revision: number;
  xs: Int32Array;
  ys: Int32Array;
  starts: Uint32Array;
  days: Uint16Array;
  mm: Float32Array;
};

/**
 * Days with water held at most, over every machine-year kept: 6 bytes each, so about 12 MB, a
 * dozen seasons of a 400 m machine watered every fourth day.
 */
const MOST_DAYS_KEPT = 2_000_000;
const SLICE_MS = 5;
const DAY_MS = 86_400_000;

/**
 * The machine-years last read, kept packed and brought up to date by the rows changed since
 * (their water revision) at each read. Reading a season's rows whole costs PGlite about 30 ms of
 * turning numbers into text and this process about 25 ms of parsing them, at every watermap and
 * every change of its dates; a machine whose water has not changed costs one small query, and
 * one being counted the few rows its last round wrote. Every server instance keeps its own: the
 * revision is the database's, so what another instance wrote is read like any other change.
 */
export class StoredWaterYears {
  /** Least recently used first. */
  private readonly kept = new Map<string, WaterYear>();
  private daysKept = 0;

  constructor(
    private readonly db: Queryable,
    private readonly mostDaysKept = MOST_DAYS_KEPT,
  ) {}

  /**
   * Each cell's water on each day it got some from `first` to `last` (UTC midnights of local
   * dates; any span across years), as written: `add` is given the day's index counted from `first`.
   */
  async eachDayWithWater(
    machineId: string,
    first: Date,
    last: Date,
    add: (x: number, y: number, dayIndex: number, mm: number) => void,
  ): Promise<void> {
    const start = dayOfYear(first);
    const stop = dayOfYear(last);
    // Its callers add up to a season's numbers: without a pause here they would be one task.
    const slicer = new TimeSlicer(SLICE_MS);
    for (let year = start.year; year <= stop.year; year += 1) {
      const from = year === start.year ? start.day : 1;
      const to = year === stop.year ? stop.day : 366;
      const indexOfDayOne = Math.round((Date.UTC(year, 0, 1) - first.getTime()) / DAY_MS) - 1;
      const { xs, ys, starts, days, mm } = await this.year(machineId, year);
      for (let cell = 0; cell < xs.length; cell += 1) {
        for (let at = starts[cell]!; at < starts[cell + 1]!; at += 1) {
          const day = days[at]!;
          if (day >= from && day <= to) add(xs[cell]!, ys[cell]!, indexOfDayOne + day, mm[at]!);
        }
        if (slicer.due()) await slicer.pause();
      }
    }
  }

  /** The machine's water of the year as stored, brought up to date. */
  async year(machineId: string, year: number): Promise<WaterYear> {
    const key = `${machineId}\u0000${year}`;
    const kept = this.kept.get(key);
    // The changed rows of any year (RowsWanted): this year's are sorted out here.
    const { revision, rows } = await storedRows(
      this.db,
      machineId,
      kept ? { changedAfter: kept.revision } : { years: [year, year] },
    );
    const changed = rows.filter((row) => row.year === year);
    const fresh = kept && changed.length === 0 ? { ...kept, revision } : await packed(kept, changed, revision);
    this.keep(key, fresh);
    return fresh;
  }

  private keep(key: string, year: WaterYear): void {
    const previous = this.kept.get(key);
    if (previous) {
      this.kept.delete(key);
      this.daysKept -= previous.days.length;
    }
    if (year.days.length > this.mostDaysKept) return;
    this.kept.set(key, year);
    this.daysKept += year.days.length;
    for (const [oldest, { days }] of this.kept) {
      if (this.daysKept <= this.mostDaysKept) break;
      this.kept.delete(oldest);
      this.daysKept -= days.length;
    }
  }
}

/** The year's cells: those of `kept` the changed rows do not replace, then the changed rows. */
async function packed(kept: WaterYear | undefined, changed: StoredRow[], revision: number): Promise<WaterYear> {
  const slicer = new TimeSlicer(SLICE_MS);
  const replaced = new Set(changed.map((row) => cellKey(row.x, row.y)));
  const keptCells: number[] = [];
  let dayCount = changed.reduce((sum, row) => sum + row.days.length, 0);
  for (let cell = 0; kept && cell < kept.xs.length; cell += 1) {
    if (replaced.has(cellKey(kept.xs[cell]!, kept.ys[cell]!))) continue;
    keptCells.push(cell);
    dayCount += kept.starts[cell + 1]! - kept.starts[cell]!;
  }
  const cellCount = keptCells.length + changed.length;
  const year: WaterYear = {
    revision,
    xs: new Int32Array(cellCount),
    ys: new Int32Array(cellCount),
    starts: new Uint32Array(cellCount + 1),
    days: new Uint16Array(dayCount),
    mm: new Float32Array(dayCount),
  };
  let cell = 0;
  let at = 0;
  const add = (x: number, y: number, days: ArrayLike<number>, mm: ArrayLike<number>) => {
    year.xs[cell] = x;
    year.ys[cell] = y;
    year.starts[cell] = at;
    year.days.set(days, at);
    year.mm.set(mm, at);
    at += days.length;
    cell += 1;
  };
  for (const index of keptCells) {
    const from = kept!.starts[index]!;
    const to = kept!.starts[index + 1]!;
    add(kept!.xs[index]!, kept!.ys[index]!, kept!.days.subarray(from, to), kept!.mm.subarray(from, to));
  }
  for (const row of changed) {
    add(row.x, row.y, row.days, row.mm);
    if (slicer.due()) await slicer.pause();
  }
  year.starts[cell] = at;
  return year;
}
