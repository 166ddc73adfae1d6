import type { WaterCellRow } from './watermap.repository';

/** `days` of a grid row: one number per day of the longest month. */
const DAYS_PER_ROW = 31;
/** Cells keep their x and y within ±2¹⁵ in the key: 327 km at 10 m, far beyond any arm. */
const AXIS = 2 ** 16;
const HALF_AXIS = AXIS / 2;
const INITIAL_ROWS = 1024;

/**
 * The water one round of the accounting spreads, per month, cell and day, until it is written.
 * Held in typed arrays, not an object and an array per cell: a round at 2,000 m holds tens of
 * thousands of cells, and as objects they kept the garbage collector's pauses (which hold the
 * event loop too) at tens of milliseconds.
 */
export class RoundGrid {
  private readonly months: string[] = [];
  private readonly rowOf = new Map<number, number>();
  /** Per row: its month's index in `months`, x and y. */
  private cells = new Int32Array(INITIAL_ROWS * 3);
  /** Per row: the water of each day of its month. */
  private days = new Float64Array(INITIAL_ROWS * DAYS_PER_ROW);
  size = 0;

  /** The handle of a month ("yyyy-mm-01") for `add`. */
  month(month: string): number {
    const known = this.months.indexOf(month);
    return known === -1 ? this.months.push(month) - 1 : known;
  }

  /** Adds depth (mm) to a cell on a day (1–31) of a month from `month()`. */
  add(month: number, day: number, x: number, y: number, depthMm: number): void {
    const key = (month * AXIS + x + HALF_AXIS) * AXIS + y + HALF_AXIS;
    let row = this.rowOf.get(key);
    if (row === undefined) {
      row = this.size;
      this.size += 1;
      if (row * 3 === this.cells.length) this.grow();
      this.cells[row * 3] = month;
      this.cells[row * 3 + 1] = x;
      this.cells[row * 3 + 2] = y;
      this.rowOf.set(key, row);
    }
    this.days[row * DAYS_PER_ROW + day - 1]! += depthMm;
  }

  /** Rows `from` up to `to` as the grid keeps them: each day holds the running sum of the month so far. */
  rows(machineId: string, from: number, to: number): WaterCellRow[] {
    const rows: WaterCellRow[] = [];
    for (let row = from; row < Math.min(to, this.size); row += 1) {
      const days = Array.from(this.days.subarray(row * DAYS_PER_ROW, (row + 1) * DAYS_PER_ROW));
      for (let day = 1; day < DAYS_PER_ROW; day += 1) days[day]! += days[day - 1]!;
      const [month, x, y] = this.cells.subarray(row * 3, row * 3 + 3);
      rows.push({ machineId, month: this.months[month!]!, x: x!, y: y!, days, total: days.at(-1)! });
    }
    return rows;
  }

  private grow(): void {
    const cells = new Int32Array(this.cells.length * 2);
    cells.set(this.cells);
    this.cells = cells;
    const days = new Float64Array(this.days.length * 2);
    days.set(this.days);
    this.days = days;
  }
}
