import { describe, expect, it } from 'vitest';
import { METRES_PER_DEGREE } from '../src/geometry';
import { GeoJsonSchema, MultiPolygonSchema, type Position, PolygonSchema } from '../src/geojson';
import {
  MAX_POLYGON_CORNERS,
  POLYGON_PROBLEM_MESSAGES,
  polygonProblem,
  polygonProblemOf,
} from '../src/polygon-validity';
import { ProgramDataSchema } from '../src/programs';
import { UpdateSprinklerBodySchema } from '../src/sprinklers';
import { issuesOf, square } from './support';

const close = (corners: Position[]): Position[] => [...corners, corners[0]!];

/** A field-sized square, 0.01° a side near Poznań. */
const shell = square(16.93, 52.41);
const bowtie = close([
  [16.93, 52.41],
  [16.94, 52.42],
  [16.94, 52.41],
  [16.93, 52.42],
]);
const line = close([
  [16.93, 52.41],
  [16.935, 52.41],
  [16.94, 52.41],
]);
/** A spike: out along an edge and back again. */
const spike = close([
  [16.93, 52.41],
  [16.94, 52.41],
  [16.94, 52.42],
  [16.935, 52.42],
  [16.945, 52.42],
  [16.93, 52.42],
]);
/** A corner visited twice: two squares touching at one point, drawn as one ring. */
const figureEight = close([
  [16.93, 52.41],
  [16.94, 52.41],
  [16.94, 52.42],
  [16.95, 52.42],
  [16.95, 52.43],
  [16.94, 52.43],
  [16.94, 52.42],
  [16.93, 52.42],
]);
/** A circle of n corners around the square's middle. */
function circle(corners: number): Position[] {
  return close(
    Array.from({ length: corners }, (_, index): Position => {
      const angle = (2 * Math.PI * index) / corners;
      return [16.935 + 0.004 * Math.cos(angle), 52.415 + 0.004 * Math.sin(angle)];
    }),
  );
}

const polygon = (...rings: Position[][]) => ({ type: 'Polygon', coordinates: rings });

describe('polygon validity', () => {
  it('accepts simple polygons: a square, a triangle, a circle of many corners, a square with a hole, corners repeated at once', () => {
    expect(polygonProblem([shell])).toBeNull();
    expect(polygonProblem([close(shell.slice(0, 3))])).toBeNull();
    expect(polygonProblem([circle(MAX_POLYGON_CORNERS)])).toBeNull();
    expect(polygonProblem([shell, square(16.932, 52.412, 0.002)])).toBeNull();
    // A hole touching the outline at one corner is still inside it.
    expect(polygonProblem([shell, square(16.93, 52.41, 0.002)])).toBeNull();
    const doubled: Position[] = [shell[0]!, shell[0]!, shell[1]!, shell[2]!, shell[2]!, shell[3]!, shell[0]!];
    expect(polygonProblem([doubled])).toBeNull();
    // Three corners on a straight edge are not a fold.
    const straight = close([
      [16.93, 52.41],
      [16.935, 52.41],
      [16.94, 52.41],
      [16.94, 52.42],
      [16.93, 52.42],
    ]);
    expect(polygonProblem([straight])).toBeNull();
  });

  it('refuses a bowtie, a spike and a corner visited twice as crossing itself', () => {
    expect(polygonProblem([bowtie])).toBe('self_intersection');
    expect(polygonProblem([spike])).toBe('self_intersection');
    expect(polygonProblem([figureEight])).toBe('self_intersection');
    expect(polygonProblem([shell, bowtie.map(([x, y]): Position => [x! * 0.0 + 16.932 + (x! - 16.93) / 5, y!])])).toBe(
      'self_intersection',
    );
  });

  it('refuses a ring with no area: corners on one line, or one point', () => {
    expect(polygonProblem([line])).toBe('zero_area');
    expect(polygonProblem([[shell[0]!, shell[0]!, shell[0]!, shell[0]!]])).toBe('zero_area');
    expect(polygonProblem([shell, line])).toBe('zero_area');
  });

  it('refuses a hole outside its shell, or crossing it', () => {
    expect(polygonProblem([shell, square(16.95, 52.41)])).toBe('hole_outside');
    expect(polygonProblem([shell, square(16.935, 52.415)])).toBe('hole_outside');
    // Every corner inside, yet the hole's edge crosses a notch of the shell.
    const notched = close([
      [16.93, 52.41],
      [16.94, 52.41],
      [16.94, 52.42],
      [16.935, 52.412],
      [16.93, 52.42],
    ]);
    const across = close([
      [16.931, 52.4125],
      [16.939, 52.4125],
      [16.939, 52.4135],
      [16.931, 52.4135],
    ]);
    expect(polygonProblem([notched, across])).toBe('hole_outside');
  });

  it(`refuses more than ${MAX_POLYGON_CORNERS} corners, holes counted`, () => {
    expect(polygonProblem([circle(MAX_POLYGON_CORNERS + 1)])).toBe('too_many_corners');
    expect(polygonProblem([circle(MAX_POLYGON_CORNERS - 2), square(16.934, 52.414, 0.001)])).toBe('too_many_corners');
  });

  it('tells the problem back from its message, as the server and the web app read it', () => {
    for (const [problem, message] of Object.entries(POLYGON_PROBLEM_MESSAGES)) {
      expect(polygonProblemOf(message)).toBe(problem);
    }
    expect(polygonProblemOf('Enter the sector name')).toBeNull();
  });
});

/**
 * A comb of long parallel teeth: every edge overlaps nearly every other along x, which made the
 * old test of every such pair take O(n²). Simple and valid.
 */
function comb(corners: number, [lng, lat]: Position = [16.93, 52.41]): Position[] {
  const teeth = Math.floor((corners - 2) / 4);
  const tooth = 0.004 / (2 * teeth);
  const ring: Position[] = [[lng, lat]];
  for (let index = 0; index < teeth; index += 1) {
    const south = lat + 2 * index * tooth;
    ring.push([lng + 0.004, south], [lng + 0.004, south + tooth], [lng + 0.0002, south + tooth]);
    ring.push([lng + 0.0002, south + 2 * tooth]);
  }
  ring.push([lng, lat + 2 * teeth * tooth]);
  return close(ring);
}

/** A zigzag whose every edge spans its whole width, closed by a strip on its west. */
function zigzag(corners: number, [lng, lat]: Position = [16.93, 52.41]): Position[] {
  const turns = corners - 2;
  const rise = 0.004 / turns;
  const ring = Array.from({ length: turns }, (_, index): Position => [lng + (index % 2) * 0.004, lat + index * rise]);
  ring.push([lng - 0.0005, lat + (turns - 1) * rise], [lng - 0.0005, lat]);
  return close(ring);
}

type Point = { x: number; y: number };

/** A ring's corners on the plane the rule checks on (around the latitude of `reference`'s first corner). */
function planeOf(ring: Position[], reference: Position[] = ring): Point[] {
  const cosLatitude = Math.max(Math.cos((reference[0]![1]! * Math.PI) / 180), 1e-6);
  return ring.slice(0, -1).map(([x, y]) => ({ x: x! * cosLatitude * METRES_PER_DEGREE, y: y! * METRES_PER_DEGREE }));
}

const sweptBefore = (p: Point, q: Point) => p.x < q.x || (p.x === q.x && p.y < q.y);
/** The turn of the three points taken west to east, as the rule's rounding is. */
const turn = (a: Point, b: Point, c: Point): number => {
  if (sweptBefore(b, a)) return -turn(b, a, c);
  if (sweptBefore(c, b)) return -turn(a, c, b);
  return Math.sign((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
};
const within = (a: Point, b: Point, p: Point) =>
  Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y);

/** Every pair of edges tested, as the ring's rule reads: the oracle the sweep is held to. */
function crossesItselfByEveryPair(ring: Position[]): boolean {
  const corners = planeOf(ring);
  const meet = (a: Point, b: Point, c: Point, d: Point) => {
    const [abc, abd, cda, cdb] = [turn(a, b, c), turn(a, b, d), turn(c, d, a), turn(c, d, b)];
    if (abc !== abd && cda !== cdb) return true;
    return (
      (abc === 0 && within(a, b, c)) ||
      (abd === 0 && within(a, b, d)) ||
      (cda === 0 && within(c, d, a)) ||
      (cdb === 0 && within(c, d, b))
    );
  };
  const count = corners.length;
  const at = (index: number) => corners[index % count]!;
  for (let i = 0; i < count; i += 1) {
    for (let j = i + 1; j < count; j += 1) {
      if (j - i === 1 || j - i === count - 1) {
        const [before, shared, after] = j - i === 1 ? [at(i), at(j), at(j + 1)] : [at(i + 1), at(i), at(j)];
        if (turn(before, shared, after) === 0 && (within(before, shared, after) || within(shared, after, before)))
          return true;
      } else if (meet(at(i), at(i + 1), at(j), at(j + 1))) return true;
    }
  }
  return false;
}

/** Every corner of the hole by ray casting and every pair of edges, as the hole's rule reads: the oracle its sweep is held to. */
function holeOutsideByEveryPair(shellRing: Position[], holeRing: Position[]): boolean {
  const shell = planeOf(shellRing);
  const hole = planeOf(holeRing, shellRing);
  const edges = (corners: Point[]) => corners.map((a, index) => [a, corners[(index + 1) % corners.length]!] as const);
  // A ray cast south, each edge judged by the turn (as the sweep's order is): the same answer as
  // casting it east but for points within rounding of an edge, where the two tests can differ.
  const inside = (point: Point) => {
    let odd = false;
    for (const [a, b] of edges(shell)) {
      if (turn(a, b, point) === 0 && within(a, b, point)) return true;
      const [west, east] = sweptBefore(a, b) ? [a, b] : [b, a];
      if (west.x <= point.x && point.x < east.x && turn(west, east, point) > 0) odd = !odd;
    }
    return odd;
  };
  if (!hole.every(inside)) return true;
  return edges(shell).some(([a, b]) =>
    edges(hole).some(([c, d]) => turn(a, b, c) * turn(a, b, d) < 0 && turn(c, d, a) * turn(c, d, b) < 0),
  );
}

/** Random rings on a small grid of whole degrees: crossings, touches, spikes and repeated corners galore. */
function randomRing(next: () => number): Position[] {
  const corners = 3 + Math.floor(next() * 8);
  const ring: Position[] = [];
  while (ring.length < corners) {
    const corner: Position = [Math.floor(next() * 5), Math.floor(next() * 5)];
    const last = ring[ring.length - 1];
    if (!last || last[0] !== corner[0] || last[1] !== corner[1]) ring.push(corner);
  }
  if (ring[0]![0] === ring[corners - 1]![0] && ring[0]![1] === ring[corners - 1]![1]) ring.pop();
  return close(ring);
}

describe('the self-crossing check on hostile outlines', () => {
  it('agrees with testing every pair of edges on 50,000 random rings', () => {
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let crossing = 0;
    for (let round = 0; round < 50_000; round += 1) {
      const ring = randomRing(next);
      const problem = polygonProblem([ring]);
      if (problem === 'zero_area') continue;
      const expected = crossesItselfByEveryPair(ring);
      if ((problem === 'self_intersection') !== expected) throw new Error(`disagrees on ${JSON.stringify(ring)}`);
      if (expected) crossing += 1;
    }
    expect(crossing).toBeGreaterThan(10_000);
  });

  // 20,000 outlines checked twice: seconds alone, more beside the rest of the test command.
  it('agrees with testing every corner and pair of edges on 20,000 random holes in random shells', () => {
    let seed = 4242;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const simple: Position[][] = [];
    while (simple.length < 400) {
      const ring = randomRing(next);
      if (polygonProblem([ring]) === null) simple.push(ring);
    }
    let outside = 0;
    for (let round = 0; round < 20_000; round += 1) {
      const shell = simple[Math.floor(next() * simple.length)]!;
      // Half the size, in the middle of the grid: often inside, often touching or crossing.
      const hole = simple[Math.floor(next() * simple.length)]!.map(([x, y]): Position => [1 + x! / 2, 1 + y! / 2]);
      const problem = polygonProblem([shell, hole]);
      // On the shell's plane (its latitude's) a hole simple on its own may not be.
      if (problem !== null && problem !== 'hole_outside') continue;
      const expected = holeOutsideByEveryPair(shell, hole);
      if ((problem === 'hole_outside') !== expected) {
        throw new Error(`disagrees on ${JSON.stringify([shell, hole])}`);
      }
      if (expected) outside += 1;
    }
    expect(outside).toBeGreaterThan(2000);
    expect(outside).toBeLessThan(19_000);
  }, 60_000);

  // How long they take is bench:hostile-geometry's figure (a timed test fails on a busy machine).
  it(`accepts 20 combs and 20 zigzags of ${MAX_POLYGON_CORNERS} corners, and refuses a comb whose tooth touches its neighbour`, () => {
    const shapes = Array.from({ length: 20 }, (_, index) => [
      comb(MAX_POLYGON_CORNERS, [16.93 + index * 0.01, 52.41]),
      zigzag(MAX_POLYGON_CORNERS, [16.93 + index * 0.01, 52.43]),
    ]).flat();
    for (const ring of shapes) expect(polygonProblem([ring])).toBeNull();
    // Still refused once a tooth touches its neighbour.
    const touching = comb(MAX_POLYGON_CORNERS);
    touching[10] = [touching[10]![0]!, touching[12]![1]!];
    expect(polygonProblem([touching])).toBe('self_intersection');
  });
});

describe('the schemas refuse invalid polygons with these messages', () => {
  const cases: [string, Position[][], string][] = [
    ['a bowtie', [bowtie], POLYGON_PROBLEM_MESSAGES.self_intersection],
    ['a line', [line], POLYGON_PROBLEM_MESSAGES.zero_area],
    ['a hole outside', [shell, square(16.95, 52.41)], POLYGON_PROBLEM_MESSAGES.hole_outside],
    ['too many corners', [circle(MAX_POLYGON_CORNERS + 1)], 'A shape can have at most 2000 corners'],
  ];

  it.each(cases)('a Polygon: %s', (_, rings, message) => {
    expect(issuesOf(PolygonSchema, polygon(...rings))).toEqual([{ path: 'coordinates', code: 'custom', message }]);
  });

  it.each(cases)('a sector of a program: %s', (_, rings, message) => {
    const programData = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { name: 'A', rate: 1 }, geometry: polygon(...rings) }],
    };
    expect(issuesOf(ProgramDataSchema, programData)).toEqual([
      { path: 'features.0.geometry.coordinates', code: 'custom', message },
    ]);
  });

  it.each(cases)("a part of a machine's area map: %s", (_, rings, message) => {
    const multi = { type: 'MultiPolygon', coordinates: [[shell], rings] };
    expect(issuesOf(MultiPolygonSchema, multi)).toEqual([{ path: 'coordinates.1', code: 'custom', message }]);
    const areaMap = { type: 'Feature', properties: { kind: 'field' }, geometry: polygon(...rings) };
    expect(GeoJsonSchema.safeParse(areaMap).success).toBe(false);
    expect(UpdateSprinklerBodySchema.safeParse({ areaMap }).success).toBe(false);
  });

  it('still accepts valid ones', () => {
    expect(PolygonSchema.safeParse(polygon(shell, square(16.932, 52.412, 0.002))).success).toBe(true);
    expect(UpdateSprinklerBodySchema.safeParse({ areaMap: polygon(shell) }).success).toBe(true);
  });
});
