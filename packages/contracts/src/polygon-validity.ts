import { METRES_PER_DEGREE } from './geometry';

/**
 * Whether a polygon is one a machine can water by: the rules the server and the web editor both
 * apply (docs/product.md#validation asks only for closed rings; a ring that crosses itself or has no area makes
 * point-in-polygon, areas and the machine's own sector lookup disagree). A polygon is refused
 * when it has more corners than MAX_POLYGON_CORNERS, when a ring has no area, when a ring crosses
 * or touches itself (a bowtie, a spike going back along an edge, a corner repeated), or when a
 * hole is not inside its outer ring. Holes overlapping each other are not looked for.
 *
 * Checked on a local plane around the polygon (longitude shrunk by the cosine of the latitude),
 * which keeps crossings as they are and gives areas in m². Crossings are found by pairs of edges
 * whose x ranges overlap (edges sorted by their west end): O(n log n) for ordinary outlines,
 * O(n²) at worst, which the corner limit bounds at two million pairs a polygon.
 */

/** Corners a polygon may have, its rings together (the closing position not counted). */
export const MAX_POLYGON_CORNERS = 2000;

/** A ring enclosing less than this (m²) has no area: a line drawn back on itself, or a point. */
const MIN_RING_AREA_M2 = 1e-4;
/** Corners all within this (m) of one line lie on it: the ring is a line. */
const LINE_TOLERANCE_M = 0.01;

export type PolygonProblem = 'too_many_corners' | 'zero_area' | 'self_intersection' | 'hole_outside';

/** The messages, in the spec's style; the web app translates them, keyed by these words. */
export const POLYGON_PROBLEM_MESSAGES: Record<PolygonProblem, string> = {
  too_many_corners: `A shape can have at most ${MAX_POLYGON_CORNERS} corners`,
  zero_area: 'The shape must enclose an area',
  self_intersection: 'The outline of the shape must not cross itself',
  hole_outside: 'A hole must lie inside its shape',
};

const PROBLEM_BY_MESSAGE = new Map(
  Object.entries(POLYGON_PROBLEM_MESSAGES).map(([problem, message]) => [message, problem as PolygonProblem]),
);

/** The problem a validation message tells of, when it is one of the messages above. */
export function polygonProblemOf(message: string): PolygonProblem | null {
  return PROBLEM_BY_MESSAGE.get(message) ?? null;
}

type Point = { x: number; y: number };
type Edge = { a: Point; b: Point; index: number; west: number; east: number };

/** Positions ([longitude, latitude, …]) of a ring, ends included. */
type Ring = readonly (readonly number[])[];

function cornerCount(rings: readonly Ring[]): number {
  return rings.reduce((sum, ring) => sum + Math.max(0, ring.length - 1), 0);
}

/** The ring's corners on the local plane, in metres; a corner repeated at once (a double click) counted once. */
function planeCorners(ring: Ring, cosLatitude: number): Point[] {
  const corners: Point[] = [];
  for (const [longitude = 0, latitude = 0] of ring.slice(0, -1)) {
    const point = { x: longitude * cosLatitude * METRES_PER_DEGREE, y: latitude * METRES_PER_DEGREE };
    const last = corners[corners.length - 1];
    if (!last || last.x !== point.x || last.y !== point.y) corners.push(point);
  }
  const first = corners[0];
  const last = corners[corners.length - 1];
  if (corners.length > 1 && first!.x === last!.x && first!.y === last!.y) corners.pop();
  return corners;
}

/** Whether the corners all lie on one line (or one point): a ring with no area, whatever its order. */
function onOneLine(corners: readonly Point[]): boolean {
  const first = corners[0];
  if (!first || corners.length < 3) return true;
  const distance = (point: Point) => Math.hypot(point.x - first.x, point.y - first.y);
  const far = corners.reduce((best, point) => (distance(point) > distance(best) ? point : best), first);
  const length = distance(far);
  if (length < LINE_TOLERANCE_M) return true;
  return corners.every(
    (point) =>
      Math.abs((far.x - first.x) * (point.y - first.y) - (far.y - first.y) * (point.x - first.x)) / length <
      LINE_TOLERANCE_M,
  );
}

function area(corners: readonly Point[]): number {
  let twice = 0;
  corners.forEach((point, index) => {
    const next = corners[(index + 1) % corners.length]!;
    twice += point.x * next.y - next.x * point.y;
  });
  return Math.abs(twice) / 2;
}

/** The sign of the turn a → b → c: 1 left, -1 right, 0 straight. */
function orientation(a: Point, b: Point, c: Point): number {
  return Math.sign((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
}

/** Whether p, on the line through a and b, lies within the segment ab. */
function withinSegment(a: Point, b: Point, p: Point): boolean {
  return (
    Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y)
  );
}

/** Whether two segments share any point, a touch included. */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const abc = orientation(a, b, c);
  const abd = orientation(a, b, d);
  const cda = orientation(c, d, a);
  const cdb = orientation(c, d, b);
  if (abc !== abd && cda !== cdb) return true;
  return (
    (abc === 0 && withinSegment(a, b, c)) ||
    (abd === 0 && withinSegment(a, b, d)) ||
    (cda === 0 && withinSegment(c, d, a)) ||
    (cdb === 0 && withinSegment(c, d, b))
  );
}

/** Whether two segments cross through each other (not merely touch). */
function segmentsCross(a: Point, b: Point, c: Point, d: Point): boolean {
  return orientation(a, b, c) * orientation(a, b, d) < 0 && orientation(c, d, a) * orientation(c, d, b) < 0;
}

function edgesOf(corners: readonly Point[]): Edge[] {
  return corners.map((a, index) => {
    const b = corners[(index + 1) % corners.length]!;
    return { a, b, index, west: Math.min(a.x, b.x), east: Math.max(a.x, b.x) };
  });
}

/** Calls visit for every pair of edges (from the two lists, or within one) whose x ranges overlap; stops at true. */
function someOverlappingPair(first: Edge[], second: Edge[] | null, visit: (p: Edge, q: Edge) => boolean): boolean {
  const tagged = [
    ...first.map((edge) => ({ edge, list: 0 })),
    ...(second ?? []).map((edge) => ({ edge, list: 1 })),
  ].sort((p, q) => p.edge.west - q.edge.west);
  for (let i = 0; i < tagged.length; i += 1) {
    const p = tagged[i]!;
    for (let j = i + 1; j < tagged.length && tagged[j]!.edge.west <= p.edge.east; j += 1) {
      const q = tagged[j]!;
      if (second && p.list === q.list) continue;
      const [one, other] = p.list <= q.list ? [p.edge, q.edge] : [q.edge, p.edge];
      if (visit(one, other)) return true;
    }
  }
  return false;
}

/** Whether a ring crosses or touches itself anywhere but where neighbouring edges meet. */
function selfIntersects(corners: readonly Point[]): boolean {
  const count = corners.length;
  return someOverlappingPair(edgesOf(corners), null, (p, q) => {
    const [first, second] = p.index < q.index ? [p, q] : [q, p];
    const gap = second.index - first.index;
    if (gap === 1 || gap === count - 1) {
      // Neighbours share a corner; they may only fold back onto each other along one line.
      const [shared, before, after] = gap === 1 ? [first.b, first.a, second.b] : [first.a, first.b, second.a];
      return (
        orientation(before, shared, after) === 0 &&
        (withinSegment(before, shared, after) || withinSegment(shared, after, before))
      );
    }
    return segmentsMeet(first.a, first.b, second.a, second.b);
  });
}

/** Point in polygon by ray casting; a point on the outline counts as inside. */
function inside(corners: readonly Point[], point: Point): boolean {
  let within = false;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i, i += 1) {
    const a = corners[i]!;
    const b = corners[j]!;
    if (orientation(a, b, point) === 0 && withinSegment(a, b, point)) return true;
    if (a.y > point.y !== b.y > point.y && point.x < ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x) {
      within = !within;
    }
  }
  return within;
}

/** What is wrong with a polygon given as its rings (outer first), or null when nothing is. */
export function polygonProblem(rings: readonly Ring[]): PolygonProblem | null {
  if (cornerCount(rings) > MAX_POLYGON_CORNERS) return 'too_many_corners';
  const latitude = rings[0]?.[0]?.[1] ?? 0;
  const cosLatitude = Math.max(Math.cos((latitude * Math.PI) / 180), 1e-6);
  const planar = rings.map((ring) => planeCorners(ring, cosLatitude));
  if (planar.length === 0 || planar.some(onOneLine)) return 'zero_area';
  if (planar.some(selfIntersects)) return 'self_intersection';
  // A simple ring can still be a sliver too thin to water.
  if (planar.some((corners) => area(corners) < MIN_RING_AREA_M2)) return 'zero_area';
  const [shell, ...holes] = planar;
  const shellEdges = edgesOf(shell!);
  for (const hole of holes) {
    if (!hole.every((corner) => inside(shell!, corner))) return 'hole_outside';
    const crossing = someOverlappingPair(shellEdges, edgesOf(hole), (p, q) => segmentsCross(p.a, p.b, q.a, q.b));
    if (crossing) return 'hole_outside';
  }
  return null;
}
