import type { SprinklerStatus } from '@pivot/contracts';

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

/**
 * Spreads the water that flowed between two consecutive reports over the wedge the arm swept,
 * as depth in mm per grid cell. The volume is `flow × Δt`; spread evenly over the wedge's area,
 * as a pivot's nozzles are sized to do. Cells the wedge covers in part get their share, so the
 * volume is kept even when a 5-second wedge is narrower than a cell.
 */
export function waterBetween(from: WaterReport, to: WaterReport, step: number): CellDepths {
  const cells: CellDepths = new Map();
  const elapsedMs = to.ts - from.ts;
  const radius = from.distance;
  if (elapsedMs <= 0 || elapsedMs > MAX_REPORT_GAP_MS || from.flow <= 0 || radius <= 0) return cells;
  const volume = from.flow * (elapsedMs / 3_600_000);

  // Reports minutes apart differ by a few degrees at most: the arm swept the shorter arc.
  const clockwise = normaliseDegrees(to.angle - from.angle);
  const [arcStart, arcWidth] = clockwise <= 180 ? [from.angle, clockwise] : [to.angle, FULL_CIRCLE - clockwise];
  // A machine watering in place wets a strip about one cell wide along the arm.
  const minimumWidth = ((step / ((2 / 3) * radius)) * 180) / Math.PI;
  const width = Math.min(FULL_CIRCLE, Math.max(arcWidth, minimumWidth));
  const start = normaliseDegrees(arcStart - (width - arcWidth) / 2);
  const depthMm = (volume / ((Math.PI * radius * radius * width) / FULL_CIRCLE)) * 1000;

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
      cells.set(cellKey(x, y), depthMm * angularShare * radialShare);
    }
  }
  return cells;
}
