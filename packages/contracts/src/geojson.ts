import { z } from 'zod';
import { POLYGON_PROBLEM_MESSAGES, polygonProblem } from './polygon-validity';

/**
 * GeoJSON as RFC 7946: positions are [longitude, latitude] (optionally altitude), everywhere
 * in the API and in imported and exported files.
 */
export const PositionSchema = z.union([
  z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]),
  z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number()]),
]);
export type Position = z.infer<typeof PositionSchema>;

export const BboxSchema = z.array(z.number()).min(4).optional();

function samePosition(a: Position, b: Position): boolean {
  return a.length === b.length && a.every((coordinate, index) => coordinate === b[index]);
}

/** A closed ring: at least four positions, the last equal to the first (docs/product.md#validation). */
export const LinearRingSchema = z
  .array(PositionSchema)
  .min(4, 'A polygon ring needs at least four positions')
  .refine(
    (ring) => ring.length === 0 || samePosition(ring[0]!, ring[ring.length - 1]!),
    'A polygon ring must end where it starts',
  );

export const PointSchema = z.strictObject({ type: z.literal('Point'), coordinates: PositionSchema, bbox: BboxSchema });
export const MultiPointSchema = z.strictObject({
  type: z.literal('MultiPoint'),
  coordinates: z.array(PositionSchema),
  bbox: BboxSchema,
});
export const LineStringSchema = z.strictObject({
  type: z.literal('LineString'),
  coordinates: z.array(PositionSchema).min(2, 'A line needs at least two positions'),
  bbox: BboxSchema,
});
export type LineString = z.infer<typeof LineStringSchema>;
export const MultiLineStringSchema = z.strictObject({
  type: z.literal('MultiLineString'),
  coordinates: z.array(z.array(PositionSchema).min(2)),
  bbox: BboxSchema,
});
const POLYGON_RINGS = z.array(LinearRingSchema);

const isUnder = (path: (string | number)[], issuePath: readonly PropertyKey[] | undefined) =>
  path.every((key, index) => issuePath?.[index] === key);

/** Refuses a polygon (its rings) that crosses itself, has no area, a hole outside or too many corners. */
function refuseInvalidPolygon(rings: Position[][], context: z.RefinementCtx, path: (string | number)[]): void {
  // Zod runs refinements over input with issues too (a ring too short or not closed): rings that
  // are not rings are told of already, by the issues under their path. Parsing them again to
  // know it cost a quarter of a large body's parse.
  if (context.issues.some((issue) => isUnder(path, issue.path)) || rings.length === 0) return;
  const problem = polygonProblem(rings);
  if (problem) context.addIssue({ code: 'custom', message: POLYGON_PROBLEM_MESSAGES[problem], path, input: rings });
}

export const PolygonSchema = z
  .strictObject({
    type: z.literal('Polygon'),
    coordinates: POLYGON_RINGS.min(1, 'A polygon needs an outer ring'),
    bbox: BboxSchema,
  })
  .superRefine((polygon, context) => refuseInvalidPolygon(polygon.coordinates, context, ['coordinates']));
export const MultiPolygonSchema = z
  .strictObject({
    type: z.literal('MultiPolygon'),
    coordinates: z.array(POLYGON_RINGS.min(1)),
    bbox: BboxSchema,
  })
  .superRefine((multiPolygon, context) =>
    multiPolygon.coordinates.forEach((rings, index) => refuseInvalidPolygon(rings, context, ['coordinates', index])),
  );

const SimpleGeometrySchema = z.discriminatedUnion('type', [
  PointSchema,
  MultiPointSchema,
  LineStringSchema,
  MultiLineStringSchema,
  PolygonSchema,
  MultiPolygonSchema,
]);
export const GeometryCollectionSchema = z.strictObject({
  type: z.literal('GeometryCollection'),
  geometries: z.array(SimpleGeometrySchema),
  bbox: BboxSchema,
});
export const GeometrySchema = z.discriminatedUnion('type', [
  PointSchema,
  MultiPointSchema,
  LineStringSchema,
  MultiLineStringSchema,
  PolygonSchema,
  MultiPolygonSchema,
  GeometryCollectionSchema,
]);
export type Geometry = z.infer<typeof GeometrySchema>;

const FeatureIdSchema = z.union([z.string(), z.number()]).optional();
const PropertiesSchema = z.record(z.string(), z.unknown()).nullable();

/** A feature whose geometry and properties follow the given schemas. */
export function featureOf<G extends z.ZodType, P extends z.ZodType>(geometry: G, properties: P) {
  return z.strictObject({
    type: z.literal('Feature'),
    id: FeatureIdSchema,
    geometry,
    properties,
    bbox: BboxSchema,
  });
}

export const FeatureSchema = featureOf(GeometrySchema.nullable(), PropertiesSchema);
export const FeatureCollectionSchema = z.strictObject({
  type: z.literal('FeatureCollection'),
  features: z.array(FeatureSchema),
  bbox: BboxSchema,
});

/** Any GeoJSON object: a geometry, a feature or a feature collection (the machine's areaMap). */
export const GeoJsonSchema = z.union([GeometrySchema, FeatureSchema, FeatureCollectionSchema]);
export type GeoJson = z.infer<typeof GeoJsonSchema>;

/** The arm of a machine as it stands now: from the pivot centre to the last tower. */
export const LineStringFeatureSchema = featureOf(LineStringSchema, PropertiesSchema);
export type LineStringFeature = z.infer<typeof LineStringFeatureSchema>;
