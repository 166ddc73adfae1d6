import type { GeoJson } from '@pivot/contracts';

/** A polygon of the area map: its rings, [longitude, latitude]. */
export type AreaPolygon = number[][][];

/**
 * The polygons of a machine's area map whose features are of `kind`, and named `name` when one is
 * given. A feature without a kind, or a bare geometry, is the field itself, as the map shows it
 * (apps/web's areaPolygons); a multipolygon gives each of its polygons.
 */
export function areaMapPolygons(areaMap: GeoJson, kind: 'field' | 'crop', name?: string): AreaPolygon[] {
  const features =
    areaMap.type === 'FeatureCollection'
      ? areaMap.features
      : areaMap.type === 'Feature'
        ? [areaMap]
        : [{ type: 'Feature' as const, geometry: areaMap, properties: {} }];
  const polygons: AreaPolygon[] = [];
  for (const feature of features) {
    const properties = feature.properties ?? {};
    if ((properties.kind ?? 'field') !== kind) continue;
    if (name !== undefined && (typeof properties.name !== 'string' || properties.name.trim() !== name)) continue;
    if (feature.geometry?.type === 'Polygon') polygons.push(feature.geometry.coordinates);
    if (feature.geometry?.type === 'MultiPolygon') polygons.push(...feature.geometry.coordinates);
  }
  return polygons;
}
