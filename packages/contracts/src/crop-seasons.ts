import { z } from 'zod';
import { DottedDateSchema, parseDottedDate } from './common';
import type { GeoJson } from './geojson';

/**
 * Crop seasons (issue 21, docs/advice.md): what a machine's field grows, where, since when and on
 * which soil, for the soil-water balance. The keys of the server's crop table (FAO-56 Tables 11,
 * 12, 22) and soil table (FAO-56 Table 19) are owned here, so that every side names them alike.
 */
export const CROP_KEYS = [
  'maize-grain',
  'potato',
  'spring-wheat',
  'winter-wheat',
  'sugar-beet',
  'alfalfa-hay',
  'soybean',
] as const;
export type CropKey = (typeof CROP_KEYS)[number];

/** Soil texture classes (USDA) of FAO-56 Table 19. */
export const SOIL_TEXTURE_KEYS = [
  'sand',
  'loamy-sand',
  'sandy-loam',
  'loam',
  'silt-loam',
  'silt',
  'silty-clay-loam',
  'silty-clay',
  'clay',
] as const;
export type SoilTextureKey = (typeof SOIL_TEXTURE_KEYS)[number];

/** At most this many seasons in one PUT; a field rarely has more than a few crop areas a year. */
export const MAX_SEASONS_PER_REQUEST = 50;
/** The years a season may start in: the product's own history, and a plan a few decades ahead at most. */
export const FIRST_SEASON_YEAR = 2000;
export const LAST_SEASON_YEAR = 2100;

/**
 * Bounds of what a user types for a custom crop. The values themselves are taken as given
 * (docs/advice.md: advice is checkable); the bounds only refuse what no crop has: FAO-56 Table 12's
 * Kc lie between 0.15 and 1.3, Table 22's roots between 0.1 and 2.0 m (3 m is generous), and p
 * is held to 0.1–0.8 wherever FAO-56 adjusts it (Table 22, footnote 2).
 */
const KC_MAX = 2;
const ROOT_DEPTH_MIN = 0.05;
const ROOT_DEPTH_MAX = 3;
const DEPLETION_FRACTION_MIN = 0.1;
const DEPLETION_FRACTION_MAX = 0.8;
const SEASON_DAYS_MAX = 366;

const isMissing = (input: unknown) => input === undefined || input === null;

/**
 * A union of a key and an object cannot tell which was meant when an object's shape is wrong
 * (a Kc list of two): for an object, the object's own first problem is the clearer message.
 */
function firstProblemOf(schema: z.ZodType, input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const issue = schema.safeParse(input).error?.issues[0];
  return issue && `${issue.path.map(String).join('.')}: ${issue.message}`.replace(/^: /, '');
}

const CropCoefficientSchema = z
  .number({ error: 'A crop coefficient Kc should be a number' })
  .positive('A crop coefficient Kc must be above 0')
  .max(KC_MAX, `A crop coefficient Kc can be at most ${KC_MAX}`);

const StageDaysSchema = z
  .number({ error: 'A growth stage length should be a whole number of days' })
  .int('A growth stage length should be a whole number of days')
  .min(1, 'A growth stage lasts at least 1 day')
  .max(SEASON_DAYS_MAX, `A growth stage lasts at most ${SEASON_DAYS_MAX} days`);

const RootDepthSchema = z
  .number({ error: 'A rooting depth should be a number of metres' })
  .min(ROOT_DEPTH_MIN, `A rooting depth is at least ${ROOT_DEPTH_MIN} m`)
  .max(ROOT_DEPTH_MAX, `A rooting depth is at most ${ROOT_DEPTH_MAX} m`);

/** The fraction of TAW that can be depleted before stress (FAO-56 Table 22's p). */
export const DepletionFractionSchema = z
  .number({ error: 'The allowed depletion p should be a number' })
  .min(DEPLETION_FRACTION_MIN, `The allowed depletion p is at least ${DEPLETION_FRACTION_MIN}`)
  .max(DEPLETION_FRACTION_MAX, `The allowed depletion p is at most ${DEPLETION_FRACTION_MAX}`);

/** A crop with its own values: Kc ini/mid/end, the four stages' days, rooting depth min/max in m, and p. */
export const CustomCropSchema = z.strictObject({
  kc: z.tuple([CropCoefficientSchema, CropCoefficientSchema, CropCoefficientSchema], {
    error: 'Give Kc as [initial, mid-season, end]',
  }),
  stages: z
    .tuple([StageDaysSchema, StageDaysSchema, StageDaysSchema, StageDaysSchema], {
      error: 'Give the stages as [initial, development, mid-season, late season] days',
    })
    .refine(
      (stages) => stages.reduce((sum, days) => sum + days, 0) <= SEASON_DAYS_MAX,
      `A season lasts at most ${SEASON_DAYS_MAX} days`,
    ),
  rootDepth: z
    .tuple([RootDepthSchema, RootDepthSchema], { error: 'Give the rooting depth as [at emergence, deepest] in m' })
    .refine(([min, max]) => min <= max, 'The rooting depth at emergence cannot exceed the deepest'),
  p: DepletionFractionSchema,
});
export type CustomCrop = z.infer<typeof CustomCropSchema>;

export const CropKeySchema = z.enum(CROP_KEYS);
/** A crop of the table by its key, or a custom crop with its own values. */
export const CropChoiceSchema = z.union([CropKeySchema, CustomCropSchema], {
  error: (issue) =>
    typeof issue.input === 'string'
      ? `Unknown crop: choose one of ${CROP_KEYS.join(', ')}, or give its own values`
      : (firstProblemOf(CustomCropSchema, issue.input) ??
        'Choose a crop of the table or give its own kc, stages, rootDepth and p'),
});
export type CropChoice = z.infer<typeof CropChoiceSchema>;

/** Volumetric water content, m³/m³: 0.25 is 25 %. */
const WaterContentSchema = z
  .number({ error: 'A water content should be a number' })
  .min(0, 'A water content is a fraction of the volume from 0 to 1 (0.25 for 25 %)')
  .max(1, 'A water content is a fraction of the volume from 0 to 1 (0.25 for 25 %)');

/** A soil's own water contents at field capacity and at the wilting point, m³/m³. */
export const SoilWaterContentsSchema = z
  .strictObject({ fieldCapacity: WaterContentSchema, wiltingPoint: WaterContentSchema })
  .refine(({ fieldCapacity, wiltingPoint }) => fieldCapacity > wiltingPoint, {
    message: 'Field capacity must be above the wilting point',
    path: ['fieldCapacity'],
  });
export type SoilWaterContents = z.infer<typeof SoilWaterContentsSchema>;

export const SoilTextureKeySchema = z.enum(SOIL_TEXTURE_KEYS);
/** A soil texture class by its key (FAO-56 Table 19's defaults), or the soil's own θFC and θWP. */
export const SoilChoiceSchema = z.union([SoilTextureKeySchema, SoilWaterContentsSchema], {
  error: (issue) =>
    typeof issue.input === 'string'
      ? `Unknown soil: choose one of ${SOIL_TEXTURE_KEYS.join(', ')}, or give its own water contents`
      : (firstProblemOf(SoilWaterContentsSchema, issue.input) ??
        'Choose a soil texture or give its own fieldCapacity and wiltingPoint'),
});
export type SoilChoice = z.infer<typeof SoilChoiceSchema>;

/** The share of the water pumped that reaches the root zone: a fraction, 0.85 for 85 %. */
export const ApplicationEfficiencySchema = z
  .number({ error: 'The application efficiency should be a number' })
  .positive('The application efficiency is a fraction above 0 and at most 1 (0.85 for 85 %)')
  .max(1, 'The application efficiency is a fraction above 0 and at most 1 (0.85 for 85 %)');

/** The year a season starts in, which (with its area) identifies it. */
export function seasonYear(season: Pick<CropSeason, 'emergence'>): number {
  return Number(season.emergence.slice(6));
}

const EmergenceSchema = DottedDateSchema.refine((text) => {
  const date = parseDottedDate(text);
  if (!date) return true; // told of already
  const year = date.getUTCFullYear();
  return year >= FIRST_SEASON_YEAR && year <= LAST_SEASON_YEAR;
}, `The emergence date must lie in the years ${FIRST_SEASON_YEAR}–${LAST_SEASON_YEAR}`);

const NameSchema = z
  .string({ error: (issue) => (isMissing(issue.input) ? 'Enter the season name' : 'The season name should be text') })
  .trim()
  .min(1, 'Enter the season name')
  .max(100, 'The season name can have at most 100 characters');

/**
 * One crop season: what grows on one crop area of the machine's map (`polygon`, the area's
 * name; null for the whole irrigated circle), from its emergence (or planting) date, on which
 * soil; p and the efficiency are optional (Table 22's p, adjusted for ETc, and 0.85).
 */
export const CropSeasonSchema = z.strictObject({
  name: NameSchema,
  polygon: z
    .string({ error: 'Name a crop area of the machine’s map, or null for the whole circle' })
    .trim()
    .min(1, 'Name a crop area of the machine’s map, or null for the whole circle')
    .max(100)
    .nullable(),
  crop: CropChoiceSchema,
  emergence: EmergenceSchema,
  soil: SoilChoiceSchema,
  p: DepletionFractionSchema.optional(),
  efficiency: ApplicationEfficiencySchema.optional(),
});
export type CropSeason = z.infer<typeof CropSeasonSchema>;

/**
 * The body of PUT /api/sprinkler/{id}/crop-seasons/. A season is one area's in one year (its
 * emergence's): two seasons of one year may not share an area, nor a name.
 */
export const CropSeasonsSchema = z
  .array(CropSeasonSchema)
  .max(MAX_SEASONS_PER_REQUEST, `At most ${MAX_SEASONS_PER_REQUEST} seasons at once`)
  .superRefine((seasons, context) => {
    const areas = new Set<string>();
    const names = new Set<string>();
    seasons.forEach((season, index) => {
      const year = seasonYear(season);
      const area = `${year}\u0000${season.polygon ?? ''}`;
      if (areas.has(area)) {
        context.addIssue({
          code: 'custom',
          message:
            season.polygon === null
              ? 'The whole circle already has a season in this year'
              : 'This crop area already has a season in this year',
          path: [index, 'polygon'],
          input: season.polygon,
        });
      }
      const name = `${year}\u0000${season.name}`;
      if (names.has(name)) {
        context.addIssue({
          code: 'custom',
          message: 'Season names must differ within a year',
          path: [index, 'name'],
          input: season.name,
        });
      }
      areas.add(area);
      names.add(name);
    });
  });
export type CropSeasons = z.infer<typeof CropSeasonsSchema>;

/** GET's answer (and PUT's): every season of the machine, of every year, oldest first. */
export const CropSeasonListSchema = z.array(CropSeasonSchema);

/** PUT's query: `year` replaces that year's seasons even when the body has none of it (removes them). */
export const CropSeasonsQuerySchema = z.strictObject({
  year: z
    .string()
    .regex(/^\d{4}$/, 'Expected a year such as 2026')
    .transform(Number)
    .pipe(
      z
        .number()
        .min(FIRST_SEASON_YEAR, `A season year lies in ${FIRST_SEASON_YEAR}–${LAST_SEASON_YEAR}`)
        .max(LAST_SEASON_YEAR, `A season year lies in ${FIRST_SEASON_YEAR}–${LAST_SEASON_YEAR}`),
    )
    .optional(),
});
export type CropSeasonsQuery = z.infer<typeof CropSeasonsQuerySchema>;

/**
 * The names of the crop areas of a machine's area map: its features with `kind: 'crop'` and a
 * name (docs/simulator.md; the web app draws them as the map's crops layer).
 */
export function cropAreaNames(areaMap: GeoJson): string[] {
  if (areaMap.type !== 'FeatureCollection' && areaMap.type !== 'Feature') return [];
  const features = areaMap.type === 'FeatureCollection' ? areaMap.features : [areaMap];
  const names: string[] = [];
  for (const feature of features) {
    const properties = feature.properties ?? {};
    if (properties.kind === 'crop' && typeof properties.name === 'string') names.push(properties.name.trim());
  }
  return names;
}
