import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BboxSchema,
  FeatureCollectionSchema,
  FeatureSchema,
  GeoJsonSchema,
  GeometryCollectionSchema,
  GeometrySchema,
  LineStringFeatureSchema,
  LineStringSchema,
  LinearRingSchema,
  MultiLineStringSchema,
  MultiPointSchema,
  MultiPolygonSchema,
  PointSchema,
  PolygonSchema,
  type Position,
  PositionSchema,
  featureOf,
} from '../src/geojson';
import { expectRejected, expectUnknownKeyRejected, messagesOf, square } from './support';

const polygon = (...rings: Position[][]) => ({ type: 'Polygon', coordinates: rings });
const point = (coordinates: Position) => ({ type: 'Point', coordinates });
const line = (...coordinates: Position[]) => ({ type: 'LineString', coordinates });
const feature = (geometry: unknown, properties: unknown = {}) => ({ type: 'Feature', geometry, properties });

// A field near Poznań: longitude first, latitude second.
const FIELD: Position = [16.93, 52.41];

describe('PositionSchema', () => {
  it.each<[Position]>([[[16.93, 52.41]], [[-180, -90]], [[180, 90]], [[0, 0, 85.5]], [[21.01, 52.23, -3]]])(
    'accepts %j',
    (position) => {
      expect(PositionSchema.parse(position)).toEqual(position);
    },
  );

  it.each([
    ['longitude above 180', [180.1, 0]],
    ['longitude below -180', [-181, 0]],
    ['latitude above 90', [0, 90.5]],
    ['latitude below -90', [0, -91]],
    ['latitude out of range with an altitude', [16.9, 120, 10]],
    ['a single coordinate', [16.9]],
    ['four coordinates', [16.9, 52.4, 10, 1]],
    ['numbers as strings', ['16.9', '52.4']],
    ['NaN', [Number.NaN, 52.4]],
    ['an object', { lng: 16.9, lat: 52.4 }],
  ])('rejects %s', (_label, position) => {
    expectRejected(PositionSchema, position);
  });
});

describe('BboxSchema', () => {
  it('is optional and takes at least four numbers', () => {
    expect(BboxSchema.parse(undefined)).toBeUndefined();
    expect(BboxSchema.parse([16.9, 52.4, 17, 52.5])).toEqual([16.9, 52.4, 17, 52.5]);
    expect(BboxSchema.parse([16.9, 52.4, 0, 17, 52.5, 100])).toHaveLength(6);
  });

  it('rejects fewer than four numbers or non-numbers', () => {
    expectRejected(BboxSchema, [16.9, 52.4, 17]);
    expectRejected(BboxSchema, ['16.9', '52.4', '17', '52.5']);
  });
});

describe('LinearRingSchema', () => {
  it('accepts a closed ring of four or more positions', () => {
    const triangle: Position[] = [FIELD, [16.94, 52.41], [16.94, 52.42], FIELD];
    expect(LinearRingSchema.parse(triangle)).toEqual(triangle);
    expect(LinearRingSchema.parse(square(...FIELD))).toHaveLength(5);
  });

  it('accepts a closed ring with altitudes', () => {
    expect(
      LinearRingSchema.safeParse([
        [0, 0, 5],
        [1, 0, 5],
        [1, 1, 5],
        [0, 0, 5],
      ]).success,
    ).toBe(true);
  });

  it.each([
    ['no positions', []],
    ['one position', [FIELD]],
    ['three positions, even when closed', [FIELD, [16.94, 52.41], FIELD]],
  ])('rejects a ring with %s', (_label, ring) => {
    expect(messagesOf(LinearRingSchema, ring)).toContain('A polygon ring needs at least four positions');
  });

  it.each([
    ['ends elsewhere', square(...FIELD).slice(0, 4)],
    ['ends at a nearby point', [...square(...FIELD).slice(0, 4), [16.930001, 52.41]]],
    [
      'adds an altitude to the last position only',
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0, 0],
      ],
    ],
  ])('rejects a ring that %s', (_label, ring) => {
    expect(messagesOf(LinearRingSchema, ring)).toEqual(['A polygon ring must end where it starts']);
  });

  it('reports positions out of range with their index', () => {
    const ring = [
      [200, 0],
      [1, 0],
      [1, 1],
      [200, 0],
    ];
    const result = LinearRingSchema.safeParse(ring);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([
      [0, 0],
      [3, 0],
    ]);
  });

  it.each([
    ['strings', ['a', 'b', 'c', 'a']],
    ['numbers', [1, 2, 3, 1]],
    ['nulls', [null, null, null, null]],
  ])('reports rather than throws on a ring of %s', (_label, ring) => {
    expect(() => LinearRingSchema.safeParse(ring)).not.toThrow();
    expectRejected(LinearRingSchema, ring);
  });
});

describe('PolygonSchema', () => {
  it('accepts an outer ring and holes', () => {
    const outer = square(16.9, 52.4, 0.1);
    const hole = square(16.95, 52.45, 0.01);
    expect(PolygonSchema.parse(polygon(outer, hole)).coordinates).toHaveLength(2);
  });

  it('rejects a polygon without rings', () => {
    expect(messagesOf(PolygonSchema, polygon())).toEqual(['A polygon needs an outer ring']);
  });

  it('rejects a hole that does not close', () => {
    const openHole = square(16.95, 52.45).slice(0, 4);
    expect(messagesOf(PolygonSchema, polygon(square(16.9, 52.4, 0.1), openHole))).toEqual([
      'A polygon ring must end where it starts',
    ]);
  });

  it('rejects a ring of fewer than four positions', () => {
    expect(messagesOf(PolygonSchema, polygon([FIELD, [17, 52.5], FIELD]))).toEqual([
      'A polygon ring needs at least four positions',
    ]);
  });

  it('checks the outline of the polygons whose rings are rings, and only theirs', () => {
    const bowtie: Position[] = [FIELD, [16.94, 52.42], [16.94, 52.41], [16.93, 52.42], FIELD];
    const shortRing: Position[] = [FIELD, [16.94, 52.42], FIELD];
    const result = MultiPolygonSchema.safeParse({ type: 'MultiPolygon', coordinates: [[shortRing], [bowtie]] });
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: ['coordinates', 0, 0], message: 'A polygon ring needs at least four positions' },
      { path: ['coordinates', 1], message: 'The outline of the shape must not cross itself' },
    ]);
    expect(messagesOf(PolygonSchema, { ...polygon(bowtie), bbox: [1] })).toEqual([
      'Too small: expected array to have >=4 items',
      'The outline of the shape must not cross itself',
    ]);
  });

  it('rejects another geometry type and unknown keys', () => {
    expectRejected(PolygonSchema, { ...polygon(square(...FIELD)), type: 'MultiPolygon' });
    expectUnknownKeyRejected(PolygonSchema, polygon(square(...FIELD)));
  });
});

describe('the other geometries', () => {
  it.each<[string, z.ZodType, unknown]>([
    ['Point', PointSchema, point(FIELD)],
    ['MultiPoint', MultiPointSchema, { type: 'MultiPoint', coordinates: [FIELD, [17, 52.5]] }],
    ['empty MultiPoint', MultiPointSchema, { type: 'MultiPoint', coordinates: [] }],
    ['LineString', LineStringSchema, line(FIELD, [17, 52.5])],
    ['MultiLineString', MultiLineStringSchema, { type: 'MultiLineString', coordinates: [[FIELD, [17, 52.5]]] }],
    ['MultiPolygon', MultiPolygonSchema, { type: 'MultiPolygon', coordinates: [[square(...FIELD)], [square(17, 52)]] }],
    ['Point with a bbox', PointSchema, { ...point(FIELD), bbox: [16.93, 52.41, 16.93, 52.41] }],
  ])('accepts a %s', (_label, schema, geometry) => {
    expect(schema.parse(geometry)).toEqual(geometry);
  });

  it.each<[string, z.ZodType, unknown]>([
    ['Point out of range', PointSchema, point([16.9, 95])],
    ['LineString of one position', LineStringSchema, line(FIELD)],
    [
      'MultiLineString with a one-position line',
      MultiLineStringSchema,
      { type: 'MultiLineString', coordinates: [[FIELD]] },
    ],
    [
      'MultiPolygon with an open ring',
      MultiPolygonSchema,
      { type: 'MultiPolygon', coordinates: [[square(...FIELD).slice(1)]] },
    ],
    ['MultiPolygon with an empty polygon', MultiPolygonSchema, { type: 'MultiPolygon', coordinates: [[]] }],
  ])('rejects a %s', (_label, schema, geometry) => {
    expectRejected(schema, geometry);
  });

  it('gives the line message for a one-position LineString', () => {
    expect(messagesOf(LineStringSchema, line(FIELD))).toEqual(['A line needs at least two positions']);
  });

  it.each<[string, z.ZodType, Record<string, unknown>]>([
    ['Point', PointSchema, point(FIELD)],
    ['LineString', LineStringSchema, line(FIELD, [17, 52.5])],
    ['MultiPolygon', MultiPolygonSchema, { type: 'MultiPolygon', coordinates: [] }],
  ])('a %s is strict', (_label, schema, geometry) => {
    expectUnknownKeyRejected(schema, geometry);
  });
});

describe('GeometryCollectionSchema and GeometrySchema', () => {
  const collection = { type: 'GeometryCollection', geometries: [point(FIELD), polygon(square(...FIELD))] };

  it('accepts a collection of simple geometries', () => {
    expect(GeometryCollectionSchema.parse(collection)).toEqual(collection);
    expect(GeometrySchema.parse(collection)).toEqual(collection);
  });

  it('rejects a collection nested in a collection', () => {
    expectRejected(GeometryCollectionSchema, { type: 'GeometryCollection', geometries: [collection] });
  });

  it('rejects an invalid member and an unknown geometry type', () => {
    expectRejected(GeometryCollectionSchema, { ...collection, geometries: [polygon(square(...FIELD).slice(1))] });
    expectRejected(GeometrySchema, { type: 'Circle', coordinates: FIELD });
  });
});

describe('featureOf, FeatureSchema and FeatureCollectionSchema', () => {
  it.each([
    ['with properties', feature(point(FIELD), { crop: 'maize' })],
    ['with null geometry and properties', feature(null, null)],
    ['with a string id', { ...feature(point(FIELD)), id: 'well-1' }],
    ['with a numeric id', { ...feature(point(FIELD)), id: 3 }],
  ])('accepts a feature %s', (_label, value) => {
    expect(FeatureSchema.parse(value)).toEqual(value);
  });

  it.each([
    ['without properties', { type: 'Feature', geometry: point(FIELD) }],
    ['without geometry', { type: 'Feature', properties: {} }],
    ['with properties that are not an object', feature(point(FIELD), 'maize')],
    ['with an id that is an object', { ...feature(point(FIELD)), id: { value: 1 } }],
    ['with an invalid geometry', feature(polygon([FIELD, FIELD, FIELD]))],
  ])('rejects a feature %s', (_label, value) => {
    expectRejected(FeatureSchema, value);
  });

  it('is strict about the feature keys', () => {
    expectUnknownKeyRejected(FeatureSchema, feature(point(FIELD)));
  });

  it('validates properties with the schema given', () => {
    const TaggedPoint = featureOf(PointSchema, z.strictObject({ tag: z.string() }));
    expect(TaggedPoint.safeParse(feature(point(FIELD), { tag: 'pump' })).success).toBe(true);
    expectRejected(TaggedPoint, feature(point(FIELD), { tag: 1 }));
    expectRejected(TaggedPoint, feature(line(FIELD, [17, 52.5]), { tag: 'pump' }));
  });

  it('accepts a feature collection, empty or not, and is strict', () => {
    const features = { type: 'FeatureCollection', features: [feature(point(FIELD)), feature(null, null)] };
    expect(FeatureCollectionSchema.parse(features)).toEqual(features);
    expect(FeatureCollectionSchema.safeParse({ type: 'FeatureCollection', features: [] }).success).toBe(true);
    expectUnknownKeyRejected(FeatureCollectionSchema, features);
  });

  it('rejects a collection holding a bare geometry', () => {
    expectRejected(FeatureCollectionSchema, { type: 'FeatureCollection', features: [point(FIELD)] });
  });
});

describe('GeoJsonSchema (the areaMap)', () => {
  it.each([
    ['a geometry', polygon(square(...FIELD))],
    ['a feature', feature(polygon(square(...FIELD)), { name: 'field' })],
    ['a feature collection', { type: 'FeatureCollection', features: [feature(point(FIELD))] }],
  ])('accepts %s', (_label, value) => {
    expect(GeoJsonSchema.parse(value)).toEqual(value);
  });

  it.each([
    ['an unknown type', { type: 'Topology', objects: {} }],
    ['a polygon with an open ring', polygon(square(...FIELD).slice(0, 4))],
    ['a feature collection with an unknown key', { type: 'FeatureCollection', features: [], name: 'x' }],
    ['a bare array', [square(...FIELD)]],
    ['null', null],
  ])('rejects %s', (_label, value) => {
    expectRejected(GeoJsonSchema, value);
  });
});

describe('LineStringFeatureSchema (the current position)', () => {
  it('accepts a LineString feature from the pivot centre to the last tower', () => {
    const arm = feature(line(FIELD, [16.935, 52.412]), null);
    expect(LineStringFeatureSchema.parse(arm)).toEqual(arm);
  });

  it.each([
    ['a point feature', feature(point(FIELD))],
    ['a polygon feature', feature(polygon(square(...FIELD)))],
    ['a feature without geometry', feature(null)],
    ['a bare LineString', line(FIELD, [17, 52.5])],
  ])('rejects %s', (_label, value) => {
    expectRejected(LineStringFeatureSchema, value);
  });
});
