import type { ProgramData } from '@pivot/contracts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LruCache } from '../../lru-cache';
import { type CoverCell, type GridRows, cellsInPolygon, gridRowsOf } from './grid-cover';

/** Machines whose covers are kept: those asked for most recently (next irrigation asks for every machine with a season). */
const MACHINES_KEPT = 200;

/** A machine's grid at one revision of its row (centre, arm, area map), and what its crop areas and program cover of it. */
export type MachineCovers<Cell extends CoverCell> = {
  revision: number;
  cells: Cell[];
  rows: GridRows;
  /** Each crop area's cells, by name: 1 at a cell's index in `cells` when the area holds it. */
  areas: Map<string, Promise<Uint8Array>>;
  /** The program's sectors' cells (indices in `cells`), sector by sector, for the program of that version. */
  program: { version: string; sectors: Promise<Int32Array[]> } | undefined;
};

/**
 * Which cells of a machine's water grid each crop area and each sector of its program holds,
 * worked out once per version of the machine's row (its `revision`, which any change of its
 * area map, centre or arm raises) and of the program it reports, and kept: a water balance
 * asked for again, by whoever, looks them up. Worked out a polygon at a time, the event loop
 * free between polygons, so a detailed map never holds it for long (docs/advice.md).
 */
export class WaterBalanceCovers<Cell extends CoverCell> {
  /** How often each was worked out, for tests and benchmarks: grids, polygons (crop areas' and sectors'), programs. */
  readonly counts = { grids: 0, polygons: 0, programs: 0 };
  private readonly machines = new LruCache<number, MachineCovers<Cell>>(MACHINES_KEPT);

  /** The machine's grid at this revision: kept, or made by `cellsOf` (each cell's `index` its place in the list). */
  grid(machine: { id: number; revision: number }, cellsOf: () => Cell[]): MachineCovers<Cell> {
    const kept = this.machines.get(machine.id);
    if (kept && kept.revision === machine.revision) return kept;
    this.counts.grids += 1;
    const cells = cellsOf();
    const covers: MachineCovers<Cell> = {
      revision: machine.revision,
      cells,
      rows: gridRowsOf(cells),
      areas: new Map(),
      program: undefined,
    };
    this.machines.set(machine.id, covers);
    return covers;
  }

  /** The cells of the grid that any of the area's polygons holds, 1 at their index. */
  area(covers: MachineCovers<Cell>, name: string, polygons: readonly number[][][][]): Promise<Uint8Array> {
    let held = covers.areas.get(name);
    if (!held) {
      held = this.cover(covers, polygons).then((perPolygon) => {
        const within = new Uint8Array(covers.cells.length);
        for (const indices of perPolygon) for (const index of indices) within[index] = 1;
        return within;
      });
      covers.areas.set(name, held);
    }
    return held;
  }

  /** Each sector's cells (indices in the grid), in the program's order, for the program of this version. */
  program(covers: MachineCovers<Cell>, version: string, program: ProgramData): Promise<Int32Array[]> {
    if (covers.program?.version !== version) {
      this.counts.programs += 1;
      covers.program = {
        version,
        sectors: this.cover(
          covers,
          program.features.map((sector) => sector.geometry.coordinates),
        ),
      };
    }
    return covers.program.sectors;
  }

  private async cover(covers: MachineCovers<Cell>, polygons: readonly number[][][][]): Promise<Int32Array[]> {
    const cells: Int32Array[] = [];
    for (const rings of polygons) {
      this.counts.polygons += 1;
      cells.push(Int32Array.from(cellsInPolygon(covers.rows, rings)));
      await nextTurn();
    }
    return cells;
  }
}
