/**
 * A prescription made into a pivot's sectors (docs/prescriptions.md). A pivot varies its dose
 * only by its arm's angle (its speed), so the prescription is read degree by degree: painted onto
 * a fine grid of the machine's circle, each degree's wedge gets the mean of the prescribed rates
 * in it (every grid cell the same area, so the mean is weighted by area), and neighbouring
 * degrees whose rates are alike within `alikeMm` make one sector, at the mean of the prescription
 * under it.
 */
import {
  type LatLng,
  METRES_PER_DEGREE,
  type PrescriptionGrid,
  type PrescriptionSector,
  type ProgramData,
  positionAt,
} from '@pivot/contracts';
import { AppError } from '../../errors';

/** A polygon of the prescription, [longitude, latitude], with its rate in mm. */
export type RatedZone = { rings: [number, number][][]; rateMm: number };
export type PivotCircle = { centre: LatLng; armLength: number };

export type PrescriptionSectors = {
  grid: PrescriptionGrid;
  sectors: PrescriptionSector[];
  programData: ProgramData;
  prescribedVolume: number;
  programVolume: number;
};

/** Grid cells across the arm: about 2 m for a 500 m arm, some 200,000 cells in the circle. */
const CELLS_PER_ARM = 250;
/** The map's grid is at most this many cells across. */
const MAP_CELLS_ACROSS = 100;
const DEGREES = 360;

const tenth = (value: number) => Math.round(value * 10) / 10;
const hundredth = (value: number) => Math.round(value * 100) / 100;

/** The machine's circle as a square grid of cells, row 0 to the north, column 0 to the west. */
type CircleGrid = { cellMetres: number; across: number; armLength: number; metresPerDegreeLng: number };

function circleGrid({ centre, armLength }: PivotCircle): CircleGrid {
  const cellMetres = Math.max(0.5, armLength / CELLS_PER_ARM);
  return {
    cellMetres,
    across: Math.ceil((2 * armLength) / cellMetres),
    armLength,
    metresPerDegreeLng: METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180),
  };
}

/**
 * Paints each zone's rate onto the grid (NaN: nothing prescribed) by scanlines: each edge adds
 * where it crosses the rows whose centres it spans, and a row is filled between crossings taken
 * in pairs, so holes and any number of corners cost one pass over the edges.
 */
function paint(zones: readonly RatedZone[], circle: PivotCircle, grid: CircleGrid): Float32Array {
  const { across, cellMetres, armLength, metresPerDegreeLng } = grid;
  const rates = new Float32Array(across * across).fill(Number.NaN);
  const rowOf = (y: number) => (armLength - y) / cellMetres - 0.5;
  for (const zone of zones) {
    const crossings = new Map<number, number[]>();
    for (const ring of zone.rings) {
      for (let index = 0; index < ring.length; index += 1) {
        const [lng1, lat1] = ring[index]!;
        const [lng2, lat2] = ring[(index + 1) % ring.length]!;
        const x1 = (lng1 - circle.centre.lng) * metresPerDegreeLng;
        const y1 = (lat1 - circle.centre.lat) * METRES_PER_DEGREE;
        const x2 = (lng2 - circle.centre.lng) * metresPerDegreeLng;
        const y2 = (lat2 - circle.centre.lat) * METRES_PER_DEGREE;
        if (y1 === y2) continue;
        // The rows whose centre y lies in [min(y1, y2), max(y1, y2)).
        const first = Math.max(0, Math.floor(rowOf(Math.max(y1, y2))) + 1);
        const last = Math.min(across - 1, Math.floor(rowOf(Math.min(y1, y2))));
        for (let row = first; row <= last; row += 1) {
          const y = armLength - (row + 0.5) * cellMetres;
          const x = x1 + ((y - y1) * (x2 - x1)) / (y2 - y1);
          const xs = crossings.get(row);
          if (xs) xs.push(x);
          else crossings.set(row, [x]);
        }
      }
    }
    for (const [row, xs] of crossings) {
      xs.sort((a, b) => a - b);
      for (let pair = 0; pair + 1 < xs.length; pair += 2) {
        const from = Math.max(0, Math.ceil((xs[pair]! + armLength) / cellMetres - 0.5));
        const to = Math.min(across - 1, Math.ceil((xs[pair + 1]! + armLength) / cellMetres - 0.5) - 1);
        for (let column = from; column <= to; column += 1) rates[row * across + column] = zone.rateMm;
      }
    }
  }
  return rates;
}

/** Each cell's degree (its centre's heading from the pivot, clockwise from north), or -1 outside the circle. */
function degreesOf(grid: CircleGrid): Int16Array {
  const { across, cellMetres, armLength } = grid;
  const degrees = new Int16Array(across * across).fill(-1);
  for (let row = 0; row < across; row += 1) {
    const y = armLength - (row + 0.5) * cellMetres;
    for (let column = 0; column < across; column += 1) {
      const x = (column + 0.5) * cellMetres - armLength;
      if (x * x + y * y > armLength * armLength) continue;
      const heading = (Math.atan2(x, y) * 180) / Math.PI;
      degrees[row * across + column] = Math.floor((heading + DEGREES) % DEGREES) % DEGREES;
    }
  }
  return degrees;
}

/** Runs of degrees, [from, to) with `to` past 360 where a run wraps through north. */
type Run = { from: number; to: number };

/** Degrees being joined into a run: their prescribed cells' rates summed, and the lowest and highest degree's mean. */
type Segment = Run & { sum: number; cells: number; low: number; high: number };

const meanOf = (segment: Segment) => segment.sum / segment.cells;

/**
 * Joins neighbouring degrees into runs, the most alike first: two neighbours join while their
 * means are within `alikeMm` and no degree of the joined run lies more than twice that from
 * another. The prescription of a degree is never exact (a 10 m cell of a grid lies half in a 1°
 * wedge), so a run is judged by its mean, not by its noisiest degree; the spread limit keeps a
 * slow gradient from joining into one run. A degree with nothing prescribed joins a neighbour.
 */
function runsOf(sums: Float64Array, counts: Uint32Array, alikeMm: number): Run[] {
  if (counts.every((count) => count === 0)) return [];
  const segments: Segment[] = Array.from(counts, (cells, degree) => {
    const mean = cells === 0 ? Number.NaN : sums[degree]! / cells;
    return {
      from: degree,
      to: degree + 1,
      sum: sums[degree]!,
      cells,
      low: cells === 0 ? Infinity : mean,
      high: cells === 0 ? -Infinity : mean,
    };
  });
  const difference = (a: Segment, b: Segment) => (a.cells === 0 || b.cells === 0 ? 0 : Math.abs(meanOf(a) - meanOf(b)));
  while (segments.length > 1) {
    let best = -1;
    let bestDifference = Infinity;
    for (let index = 0; index < segments.length; index += 1) {
      const a = segments[index]!;
      const b = segments[(index + 1) % segments.length]!;
      const spread = Math.max(a.high, b.high) - Math.min(a.low, b.low);
      const apart = difference(a, b);
      if (apart <= alikeMm && !(spread > 2 * alikeMm) && apart < bestDifference) {
        best = index;
        bestDifference = apart;
      }
    }
    if (best < 0) break;
    const next = (best + 1) % segments.length;
    const a = segments[best]!;
    const b = segments[next]!;
    const joined: Segment = {
      from: a.from,
      to: a.to + (b.to - b.from),
      sum: a.sum + b.sum,
      cells: a.cells + b.cells,
      low: Math.min(a.low, b.low),
      high: Math.max(a.high, b.high),
    };
    segments[best] = joined;
    segments.splice(next, 1);
  }
  if (segments.length === 1) return [{ from: 0, to: DEGREES }];
  return segments.map(({ from, to }) => ({ from, to }));
}

/** The wedge of the arm's circle from `from` to `to` degrees clockwise, a corner a degree; the whole circle without its centre. */
function wedge(circle: PivotCircle, { from, to }: Run): [number, number][] {
  const arc: [number, number][] = [];
  for (let degree = from; degree <= to; degree += 1) arc.push(positionAt(circle.centre, degree, circle.armLength));
  if (to - from === DEGREES) return [...arc.slice(0, -1), arc[0]!];
  const centre: [number, number] = [circle.centre.lng, circle.centre.lat];
  return [centre, ...arc, centre];
}

function sectorName({ from, to }: Run): string {
  return to - from === DEGREES ? '0°–360°' : `${from}°–${to % DEGREES}°`;
}

/** The prescription over the circle for the map: the grid's cells averaged into at most MAP_CELLS_ACROSS a side. */
function mapGrid(rates: Float32Array, degrees: Int16Array, grid: CircleGrid, circle: PivotCircle): PrescriptionGrid {
  const { across, armLength, metresPerDegreeLng } = grid;
  const block = Math.ceil(across / MAP_CELLS_ACROSS);
  const side = Math.ceil(across / block);
  const sums = new Float64Array(side * side);
  const counts = new Uint32Array(side * side);
  for (let index = 0; index < rates.length; index += 1) {
    if (degrees[index]! < 0 || Number.isNaN(rates[index]!)) continue;
    const cell = Math.floor(Math.floor(index / across) / block) * side + Math.floor((index % across) / block);
    sums[cell]! += rates[index]!;
    counts[cell]! += 1;
  }
  const extent = (side * block * grid.cellMetres) / 2;
  return {
    west: circle.centre.lng - armLength / metresPerDegreeLng,
    east: circle.centre.lng - armLength / metresPerDegreeLng + (2 * extent) / metresPerDegreeLng,
    north: circle.centre.lat + armLength / METRES_PER_DEGREE,
    south: circle.centre.lat + armLength / METRES_PER_DEGREE - (2 * extent) / METRES_PER_DEGREE,
    columns: side,
    rows: side,
    rates: Array.from(counts, (count, cell) => (count === 0 ? null : tenth(sums[cell]! / count))),
  };
}

export function prescriptionSectors(
  zones: readonly RatedZone[],
  circle: PivotCircle,
  alikeMm: number,
): PrescriptionSectors {
  if (!(circle.armLength > 0)) throw new AppError('prescription_outside_machine');
  const grid = circleGrid(circle);
  const rates = paint(zones, circle, grid);
  const degrees = degreesOf(grid);
  const sums = new Float64Array(DEGREES);
  const counts = new Uint32Array(DEGREES);
  for (let index = 0; index < rates.length; index += 1) {
    const degree = degrees[index]!;
    if (degree < 0 || Number.isNaN(rates[index]!)) continue;
    sums[degree]! += rates[index]!;
    counts[degree]! += 1;
  }
  const runs = runsOf(sums, counts, alikeMm);
  if (runs.length === 0) throw new AppError('prescription_outside_machine');

  const runOfDegree = new Int16Array(DEGREES);
  runs.forEach(({ from, to }, run) => {
    for (let degree = from; degree < to; degree += 1) runOfDegree[degree % DEGREES] = run;
  });
  const stats = runs.map(() => ({ sum: 0, prescribed: 0, cells: 0, low: Infinity, high: -Infinity, off: 0 }));
  for (let index = 0; index < rates.length; index += 1) {
    const degree = degrees[index]!;
    if (degree < 0) continue;
    const stat = stats[runOfDegree[degree]!]!;
    stat.cells += 1;
    const rate = rates[index]!;
    if (Number.isNaN(rate)) continue;
    stat.sum += rate;
    stat.prescribed += 1;
    stat.low = Math.min(stat.low, rate);
    stat.high = Math.max(stat.high, rate);
  }
  const sectorRates = stats.map((stat) => (stat.prescribed === 0 ? 0 : tenth(stat.sum / stat.prescribed)));
  let prescribedMm = 0;
  let programMm = 0;
  for (let index = 0; index < rates.length; index += 1) {
    const degree = degrees[index]!;
    const rate = rates[index]!;
    if (degree < 0 || Number.isNaN(rate)) continue;
    const run = runOfDegree[degree]!;
    stats[run]!.off += Math.abs(sectorRates[run]! - rate);
    prescribedMm += rate;
    programMm += sectorRates[run]!;
  }
  const cellCubicMetres = (grid.cellMetres * grid.cellMetres) / 1000;
  const sectors = runs.map((run, index) => {
    const stat = stats[index]!;
    const prescribed = stat.prescribed > 0;
    return {
      name: sectorName(run),
      fromAngle: run.from,
      toAngle: run.to,
      rate: sectorRates[index]!,
      prescribedMin: prescribed ? tenth(stat.low) : 0,
      prescribedMax: prescribed ? tenth(stat.high) : 0,
      meanDifference: prescribed ? hundredth(stat.off / stat.prescribed) : 0,
      coveredShare: stat.cells === 0 ? 0 : hundredth(stat.prescribed / stat.cells),
    };
  });
  return {
    grid: mapGrid(rates, degrees, grid, circle),
    sectors,
    programData: {
      type: 'FeatureCollection',
      features: runs.map((run, index) => ({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [wedge(circle, run)] },
        properties: { name: sectors[index]!.name, rate: sectors[index]!.rate },
      })),
    },
    prescribedVolume: Math.round(prescribedMm * cellCubicMetres),
    programVolume: Math.round(programMm * cellCubicMetres),
  };
}
