import {
  AREA_MAP_SEASONS_KEY,
  type AreaMapExport,
  type AreaMapFile,
  type CropSeason,
  CropSeasonsSchema,
  type GeoJson,
  type ValidationIssue,
  cropAreaNames,
} from '@pivot/contracts';
import { AppError } from '../../errors';

type Feature = Extract<GeoJson, { type: 'Feature' }>;

/** A crop area's name, as `cropAreaNames` reads it; null for any other feature. */
function cropAreaOf(feature: Feature): string | null {
  const properties = feature.properties ?? {};
  return properties.kind === 'crop' && typeof properties.name === 'string' ? properties.name.trim() : null;
}

function withoutSeasons(feature: Feature): Feature {
  if (!feature.properties || !(AREA_MAP_SEASONS_KEY in feature.properties)) return feature;
  const { [AREA_MAP_SEASONS_KEY]: _seasons, ...properties } = feature.properties;
  return { ...feature, properties };
}

/** The map a file draws, as the machine's areaMap stores it: without the seasons it carries. */
export function areaMapOfFile(file: AreaMapFile): GeoJson {
  if (file.type === 'Feature') return withoutSeasons(file);
  if (file.type !== 'FeatureCollection') return file;
  const { [AREA_MAP_SEASONS_KEY]: _seasons, ...collection } = file;
  return { ...collection, features: collection.features.map(withoutSeasons) };
}

/** A season found in a file, and where: the path an issue about it is told at. */
type PlacedSeason = { season: unknown; path: string };

function seasonsOfFeature(feature: Feature, path: string, issues: ValidationIssue[]): PlacedSeason[] {
  const listed = feature.properties?.[AREA_MAP_SEASONS_KEY];
  if (listed === undefined) return [];
  const listPath = `${path}.properties.${AREA_MAP_SEASONS_KEY}`;
  const area = cropAreaOf(feature);
  if (area === null) {
    issues.push({ path: listPath, message: 'Only a crop area (kind "crop" with a name) carries crop seasons' });
    return [];
  }
  if (!Array.isArray(listed)) {
    issues.push({ path: listPath, message: 'Give the crop seasons as a list' });
    return [];
  }
  return listed.map((season: unknown, index) => {
    const seasonPath = `${listPath}.${index}`;
    if (typeof season !== 'object' || season === null || Array.isArray(season)) return { season, path: seasonPath };
    if ('polygon' in season && season.polygon !== area) {
      issues.push({
        path: `${seasonPath}.polygon`,
        message: `A season of a crop area's feature grows on that area ("${area}"): leave out polygon`,
      });
    }
    return { season: { ...season, polygon: area }, path: seasonPath };
  });
}

/**
 * The crop seasons an area-map file carries, checked as PUT crop-seasons checks its body (the
 * same schema, and a season's area must be a crop area of the file's map), each issue told at its
 * place in the file; null when the file carries none at all (no `cropSeasons` anywhere), which is
 * not the same as an empty list.
 */
export function cropSeasonsOfFile(file: AreaMapFile): CropSeason[] | null {
  const issues: ValidationIssue[] = [];
  const placed: PlacedSeason[] = [];
  let carriesSeasons = false;
  if (file.type === 'Feature') {
    carriesSeasons = file.properties?.[AREA_MAP_SEASONS_KEY] !== undefined;
    placed.push(...seasonsOfFeature(file, 'body', issues));
  } else if (file.type === 'FeatureCollection') {
    file.features.forEach((feature, index) => {
      if (feature.properties?.[AREA_MAP_SEASONS_KEY] !== undefined) carriesSeasons = true;
      placed.push(...seasonsOfFeature(feature, `body.features.${index}`, issues));
    });
    const circle = file[AREA_MAP_SEASONS_KEY];
    if (circle !== undefined) carriesSeasons = true;
    circle?.forEach((season, index) => placed.push({ season, path: `body.${AREA_MAP_SEASONS_KEY}.${index}` }));
  }
  if (!carriesSeasons) return null;
  const parsed = CropSeasonsSchema.safeParse(placed.map(({ season }) => season));
  for (const issue of parsed.error?.issues ?? []) {
    const [index, ...rest] = issue.path;
    const place = typeof index === 'number' ? placed[index]!.path : `body.${AREA_MAP_SEASONS_KEY}`;
    issues.push({ path: [place, ...rest.map(String)].join('.'), message: issue.message });
  }
  if (issues.length > 0 || !parsed.success) throw new AppError('invalid_crop_seasons', { issues });
  const areas = areasOfMap(areaMapOfFile(file));
  const unknownAreas = parsed.data.flatMap((season, index) =>
    areas.has(season.polygon)
      ? []
      : [{ path: `${placed[index]!.path}.polygon`, message: `The map has no crop area named "${season.polygon}"` }],
  );
  if (unknownAreas.length > 0) throw new AppError('crop_area_not_found', { issues: unknownAreas });
  return parsed.data;
}

/**
 * The map as a file: a feature collection (a single feature or geometry becomes one), each crop
 * area's first feature listing that area's seasons of every year, the collection the whole
 * circle's. A season whose area is no longer on the map is not written: it is the record of an
 * area since removed, and an import never touches it (docs/advice.md).
 */
export function areaMapFileOf(areaMap: GeoJson, seasons: CropSeason[]): AreaMapExport {
  const features: Feature[] =
    areaMap.type === 'FeatureCollection'
      ? areaMap.features
      : areaMap.type === 'Feature'
        ? [areaMap]
        : [{ type: 'Feature', geometry: areaMap, properties: {} }];
  const written = new Set<string>();
  const withSeasons = features.map((feature) => {
    const area = cropAreaOf(feature);
    if (area === null || written.has(area)) return withoutSeasons(feature);
    written.add(area);
    const own = seasons.filter((season) => season.polygon === area).map(({ polygon: _area, ...season }) => season);
    if (own.length === 0) return withoutSeasons(feature);
    return { ...feature, properties: { ...feature.properties, [AREA_MAP_SEASONS_KEY]: own } };
  });
  const bbox = areaMap.type === 'FeatureCollection' ? { bbox: areaMap.bbox } : {};
  return {
    type: 'FeatureCollection',
    features: withSeasons,
    ...(bbox.bbox === undefined ? {} : bbox),
    [AREA_MAP_SEASONS_KEY]: seasons.filter((season) => season.polygon === null),
  };
}

/** The areas an imported map gives seasons to: its crop areas and the whole circle (null). */
export function areasOfMap(areaMap: GeoJson): Set<string | null> {
  return new Set<string | null>([null, ...cropAreaNames(areaMap)]);
}
