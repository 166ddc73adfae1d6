import { MACHINE_LIMITS, type SprinklerStatus } from '@pivot/contracts';

/** What the water accounting needs of a telemetry report. */
export type WaterReport = { ts: number; status: SprinklerStatus; angle: number; distance: number; flow: number };

/** A cell of the metric grid around a machine's centre: x east, y north, in cells of `step` metres. */
export type CellDepths = Map<string, number>;

export function cellKey(x: number, y: number): string {
  return `${x}:${y}`;
}

export function parseCellKey(key: string): [number, number] {
  const [x, y] = key.split(':').map(Number);
  return [x!, y!];
}

/** Reports further apart than this are a gap in the data, not ten minutes of watering. */
export const MAX_REPORT_GAP_MS = 10 * 60 * 1000;

const FULL_CIRCLE = 360;

function normaliseDegrees(angle: number): number {
  return ((angle % FULL_CIRCLE) + FULL_CIRCLE) % FULL_CIRCLE;
}

/** Length of the overlap of two arcs given by start and width in degrees (widths at most 360). */
function arcOverlap(startA: number, widthA: number, startB: number, widthB: number): number {
  let overlap = 0;
  // Shifting one arc by a full turn either way catches overlaps across north.
  for (const shift of [-FULL_CIRCLE, 0, FULL_CIRCLE]) {
    const from = Math.max(startA, startB + shift);
    const to = Math.min(startA + widthA, startB + shift + widthB);
    overlap += Math.max(0, to - from);
  }
  return Math.min(overlap, widthA, widthB);
}

/** The box around a wedge from the centre: its corners, and the compass points its arc passes. */
function wedgeBox(start: number, width: number, radius: number) {
  const bearings = [start, start + width];
  for (let compass = 0; compass < 720; compass += 90) {
    if (compass > start && compass < start + width) bearings.push(compass);
  }
  const points = bearings.map((bearing) => {
    const radians = (bearing * Math.PI) / 180;
    return { east: radius * Math.sin(radians), north: radius * Math.cos(radians) };
  });
  points.push({ east: 0, north: 0 });
  return {
    minEast: Math.min(...points.map((point) => point.east)),
    maxEast: Math.max(...points.map((point) => point.east)),
    minNorth: Math.min(...points.map((point) => point.north)),
    maxNorth: Math.max(...points.map((point) => point.north)),
  };
}

/**
 * Where the cells a wedge of at most a half circle touches can be: their centres lie within
 * `reach` of the line through the wedge's middle (its half-width at the far end, plus half a
 * cell). A 5-second wedge is a thin spoke; scanning only this strip of each grid column, not
 * the spoke's whole bounding box, spares the trigonometry of hundreds of cells it misses.
 */
function middleStrip(start: number, width: number, radius: number, step: number) {
  const everything = { northRange: (): [number, number] => [-Infinity, Infinity] };
  if (width > FULL_CIRCLE / 2) return everything;
  const middle = ((start + width / 2) * Math.PI) / 180;
  const [alongEast, alongNorth] = [Math.sin(middle), Math.cos(middle)];
  // The margin keeps rounding from ever dropping a cell on the strip's edge.
  const reach = (radius + step / 2) * Math.sin(((width / 2) * Math.PI) / 180) + step / 2 + step / 100;
  return {
    /** The norths of points at this east whose distance from the middle line is at most reach. */
    northRange(east: number): [number, number] {
      if (alongEast === 0) return Math.abs(east * alongNorth) <= reach ? [-Infinity, Infinity] : [Infinity, -Infinity];
      const low = (east * alongNorth - reach) / alongEast;
      const high = (east * alongNorth + reach) / alongEast;
      return low <= high ? [low, high] : [high, low];
    },
  };
}

/** A machine watering in place wets a strip about one cell wide along the arm: this many degrees. */
export function narrowestWedge(radius: number, step: number): number {
  return ((step / ((2 / 3) * radius)) * 180) / Math.PI;
}

/** A wedge from the machine's centre, degrees clockwise from north, and the depth of water on it. */
export type Wedge = { start: number; width: number; radius: number; depthMm: number };

/**
 * Why a pair of reports counts no water: `none` when the machine was not watering or the reports
 * are too far apart in time, `implausible` when no arm could have swept what they tell.
 */
export type NoWedge = 'none' | 'implausible';

/**
 * The longest the end of an arm keeps up its top speed (`MACHINE_LIMITS.tipSpeedMPerS`)
 * between two reports, so at most 600 m of arc however far apart they are. Only the simulator
 * runs that fast, time running up to 1,000 times faster than life, and it then reports every
 * 5 s; a real arm needs well over an hour to move 600 m. Without it, reports minutes apart could
 * still claim a half circle.
 */
export const TOP_SPEED_STRETCH_MS = 10_000;

/**
 * The wedge the arm swept between two consecutive reports, and the depth the water that flowed
 * meanwhile leaves on it: the volume `flow × Δt` spread evenly over the wedge's area, as a
 * pivot's nozzles are sized to do.
 *
 * A pair whose arm end would have moved faster than the top tip speed, or further than it goes
 * in TOP_SPEED_STRETCH_MS, is not motion but a faulty or forged report, and counts as a gap in
 * the data does: spreading its water over the wedge it claims would count a nonsense jump as a
 * huge area (up to a half circle of 2,000 m, 60,000 cells, for one pair), and clipping it to a
 * narrower wedge would put the water where the arm may never have been.
 */
export function sweptWedge(from: WaterReport, to: WaterReport, step: number): Wedge | NoWedge {
  const elapsedMs = to.ts - from.ts;
  const radius = from.distance;
  if (elapsedMs <= 0 || elapsedMs > MAX_REPORT_GAP_MS || from.flow <= 0 || radius <= 0) return 'none';

  // Reports minutes apart differ by a few degrees at most: the arm swept the shorter arc.
  const clockwise = normaliseDegrees(to.angle - from.angle);
  const [arcStart, arcWidth] = clockwise <= 180 ? [from.angle, clockwise] : [to.angle, FULL_CIRCLE - clockwise];
  const tipMetres = (arcWidth * Math.PI * radius) / 180;
  const farthestMetres = (MACHINE_LIMITS.tipSpeedMPerS * Math.min(elapsedMs, TOP_SPEED_STRETCH_MS)) / 1000;
  if (tipMetres > farthestMetres) return 'implausible';
  const width = Math.min(FULL_CIRCLE, Math.max(arcWidth, narrowestWedge(radius, step)));
  const volume = from.flow * (elapsedMs / 3_600_000);
  return {
    start: normaliseDegrees(arcStart - (width - arcWidth) / 2),
    width,
    radius,
    depthMm: (volume / ((Math.PI * radius * radius * width) / FULL_CIRCLE)) * 1000,
  };
}

/**
 * Splits a wedge into adjoining wedges of at most about `maxCells` grid cells each, as deep as
 * the whole: together they water exactly the cells the whole does (a cell on a seam gets its
 * share from each side), but each takes a bounded time to compute, so the accounting can hand
 * the event loop back between them.
 */
export function wedgePieces(wedge: Wedge, step: number, maxCells: number): Wedge[] {
  const reach = wedge.radius + step;
  const cells = (Math.PI * reach * reach * wedge.width) / FULL_CIRCLE / (step * step);
  const count = Math.max(1, Math.ceil(cells / maxCells));
  const width = wedge.width / count;
  return Array.from({ length: count }, (_, index) => ({
    ...wedge,
    start: normaliseDegrees(wedge.start + index * width),
    width,
  }));
}

/**
 * Visits each grid cell a wedge waters with its depth in mm. Cells the wedge covers in part get
 * their share, so the volume is kept even when a 5-second wedge is narrower than a cell.
 */
export function waterOnWedge(
  { start, width, radius, depthMm }: Wedge,
  step: number,
  visit: (x: number, y: number, depthMm: number) => void,
): void {
  const box = wedgeBox(start, width, radius);
  const strip = middleStrip(start, width, radius, step);
  for (let x = Math.floor(box.minEast / step) - 1; x <= Math.ceil(box.maxEast / step); x += 1) {
    const east = (x + 0.5) * step;
    const [fromNorth, toNorth] = strip.northRange(east);
    const firstY = Math.max(Math.floor(box.minNorth / step) - 1, Math.floor(fromNorth / step - 0.5));
    const lastY = Math.min(Math.ceil(box.maxNorth / step), Math.ceil(toNorth / step - 0.5));
    for (let y = firstY; y <= lastY; y += 1) {
      const north = (y + 0.5) * step;
      // Not Math.hypot: this runs for every cell of every report pair, and hypot is several times slower.
      const distance = Math.sqrt(east * east + north * north);
      const radialShare = Math.min(1, Math.max(0, (radius - (distance - step / 2)) / step));
      if (radialShare <= 0) continue;
      const bearing = normaliseDegrees((Math.atan2(east, north) * 180) / Math.PI);
      const halfWidth = Math.min(180, ((step / 2 / Math.max(distance, step / 2)) * 180) / Math.PI);
      const angularShare = arcOverlap(start, width, bearing - halfWidth, 2 * halfWidth) / (2 * halfWidth);
      if (angularShare <= 0) continue;
      visit(x, y, depthMm * angularShare * radialShare);
    }
  }
}

/** The water between two consecutive reports as depth in mm per grid cell. */
export function waterBetween(from: WaterReport, to: WaterReport, step: number): CellDepths {
  const cells: CellDepths = new Map();
  const wedge = sweptWedge(from, to, step);
  if (typeof wedge !== 'string') waterOnWedge(wedge, step, (x, y, depth) => cells.set(cellKey(x, y), depth));
  return cells;
}
