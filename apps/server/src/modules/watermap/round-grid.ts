/** Cells keep their x and y within ±2¹⁵ in the key: 327 km at 10 m, far beyond any arm. */
const AXIS = 2 ** 16;
const HALF_AXIS = AXIS / 2;
const INITIAL_CELLS = 1024;

/** A cell's x and y as one number, a cheaper key than a string. */
export function cellNumber(x: number, y: number): number {
  return (x + HALF_AXIS) * AXIS + y + HALF_AXIS;
}

/** The cell a `cellNumber` names. */
export function cellOfNumber(key: number): { x: number; y: number } {
  return { x: Math.floor(key / AXIS) - HALF_AXIS, y: (key % AXIS) - HALF_AXIS };
}

/** A cell's water (mm) as the accounting writes it. */
export type CellWater = { x: number; y: number; mm: number };

/**
 * The water one round of the accounting spreads over the cells on its one day, until it is
 * written. Held in typed arrays, not an object per cell: a round at 2,000 m holds tens of
 * thousands of cells, and as objects they kept the garbage collector's pauses (which hold the
 * event loop too) at tens of milliseconds.
 */
export class RoundGrid {
  private readonly indexOf = new Map<number, number>();
  /** Per cell: x and y. */
  private cells = new Int32Array(INITIAL_CELLS * 2);
  /** Per cell: the water, mm. */
  private depths = new Float64Array(INITIAL_CELLS);
  size = 0;

  /** Adds depth (mm) to a cell. */
  add(x: number, y: number, depthMm: number): void {
    const key = cellNumber(x, y);
    let index = this.indexOf.get(key);
    if (index === undefined) {
      index = this.size;
      this.size += 1;
      if (index === this.depths.length) this.grow();
      this.cells[index * 2] = x;
      this.cells[index * 2 + 1] = y;
      this.indexOf.set(key, index);
    }
    this.depths[index]! += depthMm;
  }

  /** Cells `from` up to `to`, in the order they were first watered. */
  rows(from: number, to: number): CellWater[] {
    const rows: CellWater[] = [];
    for (let index = from; index < Math.min(to, this.size); index += 1) {
      rows.push({ x: this.cells[index * 2]!, y: this.cells[index * 2 + 1]!, mm: this.depths[index]! });
    }
    return rows;
  }

  private grow(): void {
    const cells = new Int32Array(this.cells.length * 2);
    cells.set(this.cells);
    this.cells = cells;
    const depths = new Float64Array(this.depths.length * 2);
    depths.set(this.depths);
    this.depths = depths;
  }
}
