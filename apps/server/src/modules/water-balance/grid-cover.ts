/**
 * Which cells of a machine's water grid lie in a polygon (a crop area, a program's sector), row by
 * row: a row of cells shares one latitude, so a ring's edges are crossed once per row, and each
 * cell is placed among the crossings by bisection. Only the rows between the polygon's south and
 * north are looked at. Testing every cell against every edge took the grid's cells times the
 * polygon's corners (31,000 cells of a 1 km arm against 2,000 corners: 62 million tests a polygon);
 * this takes its rows times its corners, plus a bisection a cell.
 *
 * The answer is polygonContains' (contracts' geometry.ts) to the last bit: the same crossing
 * formula on the same numbers, a cell inside a ring when an odd number of crossings lie east of it,
 * inside the polygon when inside its outer ring and no hole.
 */

/** A GeoJSON position: [longitude, latitude]. */
type LngLat = readonly number[];

/** A cell of the grid: its centre and its place in the grid's list of cells. */
export type CoverCell = { lat: number; lng: number; index: number };
/** The grid's cells of one latitude, west to east. */
type GridRow = { lat: number; cells: CoverCell[] };
/** The grid's rows, south to north. */
export type GridRows = readonly GridRow[];

export function gridRowsOf(cells: readonly CoverCell[]): GridRows {
  const rows = new Map<number, CoverCell[]>();
  for (const cell of cells) {
    const row = rows.get(cell.lat);
    if (row) row.push(cell);
    else rows.set(cell.lat, [cell]);
  }
  return [...rows.entries()]
    .sort(([south], [north]) => south - north)
    .map(([lat, row]) => ({ lat, cells: row.sort((west, east) => west.lng - east.lng) }));
}

/** Where the ring's edges cross the latitude, west to east, as ringContains computes each. */
function crossingsAt(ring: readonly LngLat[], y: number): Float64Array {
  const crossings: number[] = [];
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > y !== yj > y) crossings.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
  }
  return Float64Array.from(crossings).sort();
}

/** Whether x has an odd number of crossings east of it (x < crossing). */
function oddEastOf(crossings: Float64Array, x: number): boolean {
  let low = 0;
  let high = crossings.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (crossings[middle]! <= x) low = middle + 1;
    else high = middle;
  }
  return (crossings.length - low) % 2 === 1;
}

/** The first row at or north of the latitude. */
function firstRowFrom(rows: GridRows, lat: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows[middle]!.lat < lat) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The indices of the cells inside the polygon (its rings, outer first), in grid order by row. */
export function cellsInPolygon(rows: GridRows, rings: readonly (readonly LngLat[])[]): number[] {
  const [outer, ...holes] = rings;
  if (outer === undefined || outer.length === 0) return [];
  let south = Number.POSITIVE_INFINITY;
  let north = Number.NEGATIVE_INFINITY;
  for (const position of outer) {
    south = Math.min(south, position[1]!);
    north = Math.max(north, position[1]!);
  }
  const inside: number[] = [];
  for (let row = firstRowFrom(rows, south); row < rows.length && rows[row]!.lat <= north; row += 1) {
    const { lat, cells } = rows[row]!;
    const outerCrossings = crossingsAt(outer, lat);
    if (outerCrossings.length === 0) continue;
    const holeCrossings = holes.map((hole) => crossingsAt(hole, lat)).filter((crossings) => crossings.length > 0);
    for (const cell of cells) {
      if (!oddEastOf(outerCrossings, cell.lng)) continue;
      if (holeCrossings.some((crossings) => oddEastOf(crossings, cell.lng))) continue;
      inside.push(cell.index);
    }
  }
  return inside;
}
