import type { RunningSlice } from '../watermap';

/**
 * The water balance's kept states (docs/advice.md, "Kept state"): for each crop season, its cells'
 * depletion at the end of a past day, so that a later answer runs only the days since. Kept in
 * the server's memory; each one carries what it was computed from (the season's settings, its
 * cells, the station, the weather and every cell's running total of water through that day), and
 * the water balance uses it only when the database still holds the same, so any number of server
 * instances over one database answer alike, and a state lost on a restart is computed again.
 */
export type KeptState = {
  /** Digest of the season's settings, its cells, the station and the first season's year. */
  inputs: string;
  /** Digest of the station's days from the season's emergence through `validThrough`. */
  weather: string;
  /** The last year whose rows the state's water was read from. */
  lastYear: number;
  /** The machine's water revision the state's water was read at (watermap's `water_cell_years.revision`). */
  revision: number;
  /** The last day the state holds, as days since 1970-01-01. */
  validThrough: number;
  /** Each cell's depletion at the end of `validThrough`, mm, in the zone's cell order. */
  depletion: Float64Array;
  /** Each cell's last day with water through `validThrough`, as days since 1970-01-01; -1: none since emergence. */
  lastWater: Int32Array;
  /** Each cell's water from 1 January through `validThrough` of its year, mm, as the watermap stores it. */
  water: Float64Array;
  /**
   * Each cell's running sums as read, from `validThrough` on: the days after it are read from here.
   * undefined for a cell with no water after `validThrough` (most cells): `water` is all of it.
   */
  sums: (readonly RunningSlice[] | undefined)[];
  /** Every day from emergence through `validThrough`, kept only by the season series' states. */
  days?: ZoneDays;
};

/**
 * Each cell's depletion at the end of each season day of a span, its Ks and the water measured
 * on it: element `(seasonDay − firstDay) × cells + cell`. The run's own float32 series, kept.
 */
export type DaySpan = {
  firstDay: number;
  lastDay: number;
  depletion: Float32Array;
  stress: Float32Array;
  applied: Float32Array;
};

/** A season's days from emergence on, span after span as they were run. */
export type ZoneDays = readonly DaySpan[];

/**
 * What the kept states may take of the server's memory, over all seasons, by `keptStateBytes`:
 * 64 MB are 2.4 M cells with no water since their state's day (about 280 machines of 520 m).
 */
export const KEPT_BYTES_LIMIT = 64 * 1024 * 1024;

/** A cell's typed arrays' numbers and its place in `sums`. */
const CELL_BYTES = 8 + 4 + 8 + 8;
/**
 * A watered cell's list of slices, each slice (its object and array) and each of its numbers, as
 * V8 holds them on 64 bits (measured: 320 bytes for a slice of one number).
 */
const SLICES_BYTES = 184;
const SLICE_BYTES = 128;
const SUM_BYTES = 8;

/** About what a state holds in memory: its cells, and the slices of those watered since its day. */
export function keptStateBytes(state: KeptState): number {
  let bytes = CELL_BYTES * state.depletion.length;
  for (const slices of state.sums) {
    if (slices === undefined) continue;
    bytes += SLICES_BYTES;
    for (const slice of slices) bytes += SLICE_BYTES + SUM_BYTES * slice.sums.length;
  }
  return bytes;
}

/** The kept states by season id, the least recently used dropped first beyond the limit. */
export class KeptStates {
  private readonly states = new Map<number, KeptState>();
  private size = 0;
  /** How many answers went on from a kept state, and how many ran a season from its emergence. */
  readonly counts = { resumed: 0, fromEmergence: 0 };

  /** `sizeOf` counts what a state holds against the limit: its bytes, unless told otherwise. */
  constructor(
    private readonly limit = KEPT_BYTES_LIMIT,
    private readonly sizeOf: (state: KeptState) => number = keptStateBytes,
  ) {}

  get(seasonId: number): KeptState | undefined {
    const state = this.states.get(seasonId);
    if (state) {
      this.states.delete(seasonId);
      this.states.set(seasonId, state);
    }
    return state;
  }

  set(seasonId: number, state: KeptState): void {
    this.delete(seasonId);
    const size = this.sizeOf(state);
    if (size > this.limit) return;
    this.states.set(seasonId, state);
    this.size += size;
    for (const [id, oldest] of this.states) {
      if (this.size <= this.limit) break;
      this.states.delete(id);
      this.size -= this.sizeOf(oldest);
    }
  }

  delete(seasonId: number): void {
    const state = this.states.get(seasonId);
    if (!state) return;
    this.states.delete(seasonId);
    this.size -= this.sizeOf(state);
  }

  clear(): void {
    this.states.clear();
    this.size = 0;
  }
}
