import { type ErrorBody, MAX_POLYGON_CORNERS, POLYGON_PROBLEM_MESSAGES } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { buildProgram, buildSprinkler, squareSector } from '../support/fixtures';
import { useTestApp } from '../support/test-app';

type Corner = [number, number];

/** Rings of each shape the contract refuses, near the fixtures' squares (17.1, 52.2). */
const close = (corners: Corner[]): Corner[] => [...corners, corners[0]!];
const BAD_SHAPES: [string, Corner[][], string][] = [
  [
    'a bowtie',
    [
      close([
        [17.1, 52.2],
        [17.101, 52.201],
        [17.101, 52.2],
        [17.1, 52.201],
      ]),
    ],
    POLYGON_PROBLEM_MESSAGES.self_intersection,
  ],
  [
    'a polygon of no area',
    [
      close([
        [17.1, 52.2],
        [17.1005, 52.2],
        [17.101, 52.2],
      ]),
    ],
    POLYGON_PROBLEM_MESSAGES.zero_area,
  ],
  [
    'a hole outside its shell',
    [squareSector('Shell', 1).geometry.coordinates[0]!, squareSector('Hole', 1, 17.2).geometry.coordinates[0]!],
    POLYGON_PROBLEM_MESSAGES.hole_outside,
  ],
  [
    `more than ${MAX_POLYGON_CORNERS} corners`,
    [
      close(
        Array.from({ length: MAX_POLYGON_CORNERS + 1 }, (_, index): Corner => {
          const angle = (2 * Math.PI * index) / (MAX_POLYGON_CORNERS + 1);
          return [17.1 + 0.001 * Math.cos(angle), 52.2 + 0.001 * Math.sin(angle)];
        }),
      ),
    ],
    POLYGON_PROBLEM_MESSAGES.too_many_corners,
  ],
];

const sectorOf = (rings: Corner[][]) => ({
  ...squareSector('Bad', 10),
  geometry: { type: 'Polygon' as const, coordinates: rings },
});

describe('geometry validity on the routes that take a field’s geometry', () => {
  const t = useTestApp({}, { signInAdmin: true });

  function expectRefused(response: { status: number; body: unknown }, path: string, message: string) {
    expect(response.status).toBe(400);
    const body = response.body as ErrorBody;
    expect(body.code).toBe('invalid_geometry');
    expect(body.issues).toEqual([{ path, message }]);
  }

  it.each(BAD_SHAPES)('POST a program: refuses %s with 400 invalid_geometry', async (_, rings, message) => {
    const pivot = await buildSprinkler(t);
    const response = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, buildProgram('Bad', [sectorOf(rings)]));
    expectRefused(response, 'body.programData.features.0.geometry.coordinates', message);
    expect((await t.admin.get(`/api/sprinkler/${pivot.id}/`)).body).toMatchObject({ programs: [] });
  });

  it.each(BAD_SHAPES)('PATCH a program (a sector edited): refuses %s', async (_, rings, message) => {
    const pivot = await buildSprinkler(t);
    const created = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, buildProgram('Good'));
    expect(created.status).toBe(201);
    const programId = (created.body as { programs: { id: number }[] }).programs[0]!.id;
    const body = buildProgram('Good', [squareSector('North', 12), sectorOf(rings)]);
    const response = await t.admin.patch(`/api/sprinkler/${pivot.id}/program/${programId}/`, body);
    expectRefused(response, 'body.programData.features.1.geometry.coordinates', message);
  });

  it.each(BAD_SHAPES)('PATCH a machine’s area map: refuses %s', async (_, rings, message) => {
    const pivot = await buildSprinkler(t);
    const areaMap = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { kind: 'field' }, geometry: { type: 'Polygon', coordinates: rings } }],
    };
    const response = await t.admin.patch(`/api/sprinkler/${pivot.id}/`, { areaMap });
    expect(response.status).toBe(400);
    expect((response.body as ErrorBody).code).toBe('invalid_geometry');
    expect((response.body as ErrorBody).issues).toContainEqual({
      path: 'body.areaMap.features.0.geometry.coordinates',
      message,
    });
  });

  it('answers in the language asked for, and keeps validation_error when something else is wrong too', async () => {
    const pivot = await buildSprinkler(t);
    const [, bowtie] = BAD_SHAPES[0]!;
    const polish = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, buildProgram('Zły', [sectorOf(bowtie)]), {
      headers: { 'accept-language': 'pl' },
    });
    expect(polish.status).toBe(400);
    expect((polish.body as ErrorBody).message).toMatch(/^Kształt jest nieprawidłowy/);
    const mixed = buildProgram('Bad', [{ ...sectorOf(bowtie), properties: { name: '', rate: 1 } }]);
    const response = await t.admin.post(`/api/sprinkler/${pivot.id}/program/`, mixed);
    expect(response.status).toBe(400);
    expect((response.body as ErrorBody).code).toBe('validation_error');
  });
});
