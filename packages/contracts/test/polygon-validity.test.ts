import { describe, expect, it } from 'vitest';
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
