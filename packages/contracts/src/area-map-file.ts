import { z } from 'zod';
import { CropSeasonListSchema, CropSeasonSchema } from './crop-seasons';
import { BboxSchema, FeatureSchema, GeoJsonSchema, GeometrySchema } from './geojson';

/**
 * A machine's area map as a file (docs/advice.md, "The area map as a file"): GeoJSON whose crop
 * areas carry their crop seasons. A crop area's feature (`kind: "crop"` and a name) lists the
 * seasons of that area under this property, each a season without `polygon` (the feature names
 * the area); the feature collection lists the whole circle's seasons (`polygon: null`) under a
 * member of the same name (RFC 7946 §6.1 allows such foreign members).
 */
export const AREA_MAP_SEASONS_KEY = 'cropSeasons';

/** A season as a crop area's feature carries it: the area is the feature's. */
export const AreaSeasonSchema = CropSeasonSchema.omit({ polygon: true });
export type AreaSeason = z.infer<typeof AreaSeasonSchema>;

/**
 * The body of PUT /api/sprinkler/{id}/area-map/ is a GeoJSON object of whatever kind the machine's areaMap
 * takes, a feature collection with its whole-circle seasons besides. The seasons are checked by
 * the server against CropSeasonSchema with their places in the file, so that a bad one is told
 * where it lies (`body.features.2.properties.cropSeasons.0.soil`).
 */
export const AreaMapFileSchema = z.union([
  GeometrySchema,
  FeatureSchema,
  z.strictObject({
    type: z.literal('FeatureCollection'),
    features: z.array(FeatureSchema),
    bbox: BboxSchema,
    [AREA_MAP_SEASONS_KEY]: z.array(z.unknown()).optional(),
  }),
]);
export type AreaMapFile = z.infer<typeof AreaMapFileSchema>;

/** GET /api/sprinkler/{id}/area-map/: the map as a feature collection, its seasons in it. */
export const AreaMapExportSchema = z.strictObject({
  type: z.literal('FeatureCollection'),
  features: z.array(FeatureSchema),
  bbox: BboxSchema,
  [AREA_MAP_SEASONS_KEY]: CropSeasonListSchema,
});
export type AreaMapExport = z.infer<typeof AreaMapExportSchema>;

/** PUT's answer: the map as stored (without the seasons) and every season of the machine, as GET crop-seasons gives them. */
export const AreaMapImportResultSchema = z.strictObject({
  areaMap: GeoJsonSchema,
  seasons: CropSeasonListSchema,
});
export type AreaMapImportResult = z.infer<typeof AreaMapImportResultSchema>;
