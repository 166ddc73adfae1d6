import { strToU8, zipSync } from 'fflate';
/**
 * Valid shapes as costly as a user can draw them, for bench:hostile-geometry and the tests of the
 * corner budget and the water balance: every edge of a comb or a zigzag overlaps nearly every
 * other along x, which made the polygon check's old pair test quadratic; many of them make a body
 * as heavy as its size allows.
 */
type Ring = [number, number][];

const round = (value: number) => Math.round(value * 1e7) / 1e7;

/** A comb of long thin teeth with `corners` corners, its west corner at (lng, lat), about 400 × 200 m. */
export function combRing(corners: number, lng: number, lat: number): Ring {
  const teeth = Math.floor((corners - 2) / 4);
  const tooth = 0.002 / (2 * teeth);
  const ring: Ring = [[lng, lat]];
  for (let index = 0; index < teeth; index += 1) {
    const south = lat + 2 * index * tooth;
    ring.push([round(lng + 0.006), round(south)], [round(lng + 0.006), round(south + tooth)]);
    ring.push([round(lng + 0.0002), round(south + tooth)], [round(lng + 0.0002), round(south + 2 * tooth)]);
  }
  ring.push([lng, round(lat + 2 * teeth * tooth)], [lng, lat]);
  return ring;
}

/** A zigzag whose every edge spans its whole width, closed by a strip on its west. */
export function zigzagRing(corners: number, lng: number, lat: number): Ring {
  const turns = corners - 2;
  const rise = 0.002 / turns;
  const ring: Ring = Array.from({ length: turns }, (_, index) => [
    round(lng + (index % 2) * 0.006),
    round(lat + index * rise),
  ]);
  ring.push([round(lng - 0.0005), round(lat + (turns - 1) * rise)], [round(lng - 0.0005), lat]);
  ring.push(ring[0]!);
  return ring;
}

/**
 * A shell whose north side zigzags over its whole width, with a comb-shaped hole under it, half
 * the corners each: a hole is checked against its shell by pairs of edges overlapping in x and
 * corner by corner, the part of the check that stays quadratic within a polygon's corner limit.
 */
export function zigzagShellWithHole(corners: number, lng: number, lat: number): Ring[] {
  const half = Math.floor(corners / 2);
  const turns = half - 2;
  const step = 0.006 / (turns - 1);
  const shell: Ring = [
    [lng, lat],
    [round(lng + 0.006), lat],
  ];
  for (let index = turns - 1; index >= 0; index -= 1) {
    shell.push([round(lng + index * step), round(lat + 0.003 + (index % 2) * 0.0002)]);
  }
  shell.push([lng, lat]);
  const hole = combRing(half, lng + 0.0003, lat + 0.0003).map(([x, y]): [number, number] => [
    round(lng + 0.0003 + (x - lng - 0.0003) * 0.9),
    round(lat + 0.0003 + (y - lat - 0.0003) * 1.1),
  ]);
  return [shell, hole];
}

/** `count` polygons side by side, each made by `shape`, as the features of a collection with the properties given. */
export function features<Properties extends Record<string, unknown>>(
  count: number,
  shape: (lng: number, lat: number) => Ring[],
  properties: (index: number) => Properties,
  origin: { lng: number; lat: number },
) {
  return Array.from({ length: count }, (_, index) => ({
    type: 'Feature' as const,
    geometry: {
      type: 'Polygon' as const,
      coordinates: shape(origin.lng + (index % 10) * 0.0075, origin.lat + Math.floor(index / 10) * 0.0035),
    },
    properties: properties(index),
  }));
}

/**
 * A zipped shapefile of one polygon record that says it has a million points, for the
 * prescription import's test and bench:prescription: its points are zeros (16 MB that deflate to
 * kilobytes), so only its header counts what reading it would cost.
 */
export function millionCornerShapefileZip(): Uint8Array {
  const points = 1_000_000;
  const content = 4 + 32 + 4 + 4 + 4 + points * 16;
  const shp = new Uint8Array(100 + 8 + content);
  const view = new DataView(shp.buffer);
  view.setInt32(0, 9994);
  view.setInt32(24, shp.length / 2);
  view.setInt32(28, 1000, true);
  view.setInt32(32, 5, true);
  view.setInt32(100, 1);
  view.setInt32(104, content / 2);
  view.setInt32(108, 5, true);
  view.setInt32(108 + 36, 1, true);
  view.setInt32(108 + 40, points, true);
  return zipSync({ 'million.shp': shp, 'million.dbf': strToU8('x') });
}
