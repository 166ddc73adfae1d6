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
 * which keeps crossings as they are and gives areas in m². A ring crossing itself, and a hole
 * leaving its shell, are found by sweeps: O(n log n) whatever the outline (the web editor runs
 * them on every change too).
 */

/** Corners a polygon may have, its rings together (the closing position not counted). */
export const MAX_POLYGON_CORNERS = 2000;

/**
 * Corners one request body or one controller's message may carry in all, counted before any
 * schema runs: a polygon's corners (a program's sectors, an area map's shapes) and a line's
 * points alike, since the schemas check each position and every polygon as they parse. The work
 * a request or a message asks of the server is bounded by this, not only by each polygon's
 * corners. A farm's largest program or area map has some hundreds to a few thousand corners;
 * 10,000 are parsed and checked in a few tens of milliseconds (docs/benchmarks.md,
 * bench:hostile-geometry).
 */
export const MAX_CORNERS_PER_MESSAGE = 10_000;

/**
 * The corners of every GeoJSON geometry in a JSON document, however deep: a polygon's corners
 * (its rings' closing positions not counted), a line's or a multipoint's positions; counting
 * stops once past `stopAbove`. Nothing is parsed or checked: it is what a body or a message is
 * refused by before its schema runs.
 */
export function cornersIn(document: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let corners = 0;
  const lengthOf = (list: unknown, closing: number) => (Array.isArray(list) ? Math.max(0, list.length - closing) : 0);
  const sumOf = (lists: unknown, closing: number) => {
    let sum = 0;
    if (Array.isArray(lists)) for (const list of lists) sum += lengthOf(list, closing);
    return sum;
  };
  const pending: unknown[] = [document];
  while (pending.length > 0 && corners <= stopAbove) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
    if (type === 'Point' || !Array.isArray(coordinates)) {
      for (const member of Object.values(value)) pending.push(member);
    } else if (type === 'LineString' || type === 'MultiPoint') corners += lengthOf(coordinates, 0);
    else if (type === 'MultiLineString') corners += sumOf(coordinates, 0);
    else if (type === 'Polygon') corners += sumOf(coordinates, 1);
    else if (type === 'MultiPolygon') for (const polygon of coordinates) corners += sumOf(polygon, 1);
    else for (const member of Object.values(value)) pending.push(member);
  }
  return corners;
}

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

/** Whether p comes before q in the sweep: west first, then south first. */
function sweptBefore(p: Point, q: Point): boolean {
  return p.x < q.x || (p.x === q.x && p.y < q.y);
}

/**
 * The sign of the turn a → b → c: 1 left, -1 right, 0 straight. Worked out on the three points
 * taken west to east whatever order they come in (a swap flips the sign), since the rounding of
 * the product depends on the order: the sweep and the pair test ask about the same three corners
 * in different orders and must get the same answer.
 */
function orientation(a: Point, b: Point, c: Point): number {
  if (sweptBefore(b, a)) return -orientation(b, a, c);
  if (sweptBefore(c, b)) return -orientation(a, c, b);
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

/** A ring's edge as the sweep sees it: from its west end (the lower one when upright) to its east end. */
type SweptEdge = { west: Point; east: Point; index: number };

/** Where an edge lies at p's x: 1 below p, 0 through it, -1 above (an upright edge counts at p's height). */
function sideOf(edge: SweptEdge, p: Point): number {
  if (edge.west.x === edge.east.x) return edge.east.y < p.y ? 1 : edge.west.y > p.y ? -1 : 0;
  return orientation(edge.west, edge.east, p);
}

/** Whether two neighbouring edges of a ring fold back onto each other along one line (a spike). */
function foldsBack(corners: readonly Point[]): boolean {
  return corners.some((shared, index) => {
    const before = corners[(index + corners.length - 1) % corners.length]!;
    const after = corners[(index + 1) % corners.length]!;
    return (
      orientation(before, shared, after) === 0 &&
      (withinSegment(before, shared, after) || withinSegment(shared, after, before))
    );
  });
}

function cornerRepeated(corners: readonly Point[]): boolean {
  const seen = new Set<string>();
  for (const { x, y } of corners) {
    const key = `${x},${y}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/**
 * Whether a ring crosses or touches itself anywhere but where neighbouring edges meet. Spikes
 * and corners visited twice are found first, in one pass each; then a sweep from west to east
 * (Shamos and Hoffman's) keeps the edges it is within ordered south to north and tests each edge
 * only against its neighbours in that order as it comes and goes, plus any edge passing through
 * a corner it reaches: the first crossing or touch is always between neighbours, so O(n log n)
 * comparisons find it, where testing every pair of edges overlapping in x took O(n²) on an
 * outline of long parallel edges (a comb, a zigzag), which a user can draw.
 */
function selfIntersects(corners: readonly Point[]): boolean {
  const count = corners.length;
  if (foldsBack(corners) || cornerRepeated(corners)) return true;
  const edges: SweptEdge[] = corners.map((a, index) => {
    const b = corners[(index + 1) % count]!;
    return sweptBefore(a, b) ? { west: a, east: b, index } : { west: b, east: a, index };
  });
  const neighbours = (p: SweptEdge, q: SweptEdge) => {
    const gap = Math.abs(p.index - q.index);
    return gap === 1 || gap === count - 1;
  };
  const conflict = (p: SweptEdge | undefined, q: SweptEdge | undefined) =>
    p !== undefined && q !== undefined && !neighbours(p, q) && segmentsMeet(p.west, p.east, q.west, q.east);
  const order = corners
    .map((_, index) => index)
    .sort((i, j) => {
      const p = corners[i]!;
      const q = corners[j]!;
      return p.x - q.x || p.y - q.y;
    });
  /** The edges the sweep is within, south to north. */
  const active: SweptEdge[] = [];
  /** The first place in active whose edge is not below p (side ≤ limit), by bisection. */
  const firstNotBelow = (p: Point, limit: number) => {
    let low = 0;
    let high = active.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sideOf(active[middle]!, p) > limit) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  for (const index of order) {
    const p = corners[index]!;
    const incident = [edges[(index + count - 1) % count]!, edges[index]!];
    // An edge through this corner other than the corner's own two touches the ring here.
    const through = firstNotBelow(p, 0);
    const above = firstNotBelow(p, -1);
    for (let at = through; at < above; at += 1) {
      const edge = active[at]!;
      if (!incident.includes(edge) && incident.some((own) => !neighbours(edge, own))) return true;
    }
    for (const edge of incident) if (edge.east === p) active.splice(active.indexOf(edge), 1);
    const starting = incident.filter((edge) => edge.west === p);
    if (starting.length === 2 && orientation(p, starting[0]!.east, starting[1]!.east) < 0) starting.reverse();
    const at = firstNotBelow(p, 0);
    active.splice(at, 0, ...starting);
    const last = at + starting.length;
    if (conflict(active[at - 1], active[at]) || conflict(active[last - 1], active[last])) return true;
  }
  return false;
}

/** An edge of the shell (ring 0) or of a hole (ring 1), as the sweep sees it. */
type RingEdge = SweptEdge & { ring: number };

/**
 * At a point: a corner of the hole to place (0), an edge leaving the sweep (1) or entering it (2),
 * in that order, so that the edges entering meet only edges going on through the point.
 */
type HoleEvent = { at: Point; kind: 0 | 1 | 2; edge: RingEdge | undefined };

/**
 * Whether a hole leaves its shell: a corner of it outside the shell (on the outline counts as
 * inside), or an edge of it crossing one of the shell's (touching is allowed). Both rings are
 * simple. One sweep from west to east answers both: the shell's edges below a corner, counted in
 * the sweep's order, tell by their parity whether it is inside (a ray cast south), and the edges
 * of both rings, kept in that order, are tested for a crossing only against their neighbours, as
 * for a ring crossing itself. O(n log n), where a corner at a time and every pair of edges
 * overlapping in x took the hole's corners times the shell's.
 */
function holeOutside(shell: readonly Point[], hole: readonly Point[]): boolean {
  const ringEdges = (corners: readonly Point[], ring: number): RingEdge[] =>
    corners.map((a, index) => {
      const b = corners[(index + 1) % corners.length]!;
      return sweptBefore(a, b) ? { west: a, east: b, index, ring } : { west: b, east: a, index, ring };
    });
  const edges = [...ringEdges(shell, 0), ...ringEdges(hole, 1)];
  const events: HoleEvent[] = [
    ...hole.map((at): HoleEvent => ({ at, kind: 0, edge: undefined })),
    ...edges.map((edge): HoleEvent => ({ at: edge.east, kind: 1, edge })),
    ...edges.map((edge): HoleEvent => ({ at: edge.west, kind: 2, edge })),
  ].sort((p, q) => p.at.x - q.at.x || p.at.y - q.at.y || p.kind - q.kind);
  /** The shell's edges the sweep is within, and both rings', south to north. */
  const shellActive: RingEdge[] = [];
  const active: RingEdge[] = [];
  const crossing = (p: RingEdge | undefined, q: RingEdge | undefined) =>
    p !== undefined && q !== undefined && p.ring !== q.ring && segmentsCross(p.west, p.east, q.west, q.east);
  /** The first place in the list whose edge is not below the point (side ≤ limit). */
  const firstNotBelow = (list: RingEdge[], p: Point, limit: number) => {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sideOf(list[middle]!, p) > limit) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  /** Where an edge entering at its west end goes: above the edges below that point, and those through it it turns left of. */
  const placeOf = (list: RingEdge[], entering: RingEdge) => {
    const p = entering.west;
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const edge = list[middle]!;
      const side = sideOf(edge, p);
      const below = side === 0 ? orientation(edge.west, edge.east, entering.east) >= 0 : side > 0;
      if (below) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const shellCorners = new Set(shell.map(({ x, y }) => `${x},${y}`));
  for (const { at, kind, edge } of events) {
    if (kind === 0) {
      // On one of the shell's corners, or on an edge going through: on the outline, which is inside.
      const below = firstNotBelow(shellActive, at, 0);
      const onOutline = shellCorners.has(`${at.x},${at.y}`) || firstNotBelow(shellActive, at, -1) > below;
      if (!onOutline && below % 2 === 0) return true;
    } else if (kind === 1) {
      if (edge!.ring === 0) shellActive.splice(shellActive.indexOf(edge!), 1);
      const place = active.indexOf(edge!);
      active.splice(place, 1);
      if (crossing(active[place - 1], active[place])) return true;
    } else {
      if (edge!.ring === 0) shellActive.splice(placeOf(shellActive, edge!), 0, edge!);
      const place = placeOf(active, edge!);
      active.splice(place, 0, edge!);
      if (crossing(active[place - 1], edge) || crossing(edge, active[place + 1])) return true;
    }
  }
  return false;
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
  return holes.some((hole) => holeOutside(shell!, hole)) ? 'hole_outside' : null;
}
