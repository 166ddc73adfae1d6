/**
 * The crops a season can name, with the values of FAO Irrigation and Drainage Paper 56 (Allen,
 * Pereira, Raes and Smith, 1998): Table 11 (lengths of the growth stages), Table 12 (single crop
 * coefficients Kc and mean maximum plant heights), Table 22 (maximum effective rooting depth and
 * the depletion fraction p for no stress) and Annex 8 (the rooting depth at emergence).
 *
 * FAO-56 Rev. 1 (2025) changed many of these values; the 1998 ones are kept, and named, so that
 * every number can be checked against the printed page. docs/advice.md explains each choice.
 */
import { CROP_KEYS, type CropKey } from '@pivot/contracts';

export const CROP_TABLE_VERSION = 'FAO-56 (1998)';

/** Kc at the initial stage, through the mid-season stage and at the end of the late season stage (Table 12). */
export type CropCoefficients = { initial: number; midSeason: number; end: number };

/** Lengths of the four growth stages, days (Table 11). */
export type GrowthStages = { initial: number; development: number; midSeason: number; lateSeason: number };

/** Effective rooting depth at emergence and the most it reaches, m. */
export type RootDepths = { min: number; max: number };

/** What the water balance needs of a crop: a custom crop gives these itself, taken as given. */
export type CropParameters = {
  kc: CropCoefficients;
  stages: GrowthStages;
  rootDepth: RootDepths;
  /** Fraction of TAW that can be depleted before stress, at ETc ≈ 5 mm/day (Table 22). */
  depletionFraction: number;
};

export type TableCrop = CropParameters & {
  name: string;
  /** Mean maximum plant height, m (Table 12), for the climate adjustment of Kc mid and Kc end (Eq. 62, 65). */
  height: number;
  /** Table 22's range of the maximum effective rooting depth, m; `rootDepth.max` is its smaller value. */
  maxRootDepthRange: readonly [number, number];
  /** The rows of the tables each value comes from, as docs/advice.md cites them. */
  sources: { kc: string; stages: string; rootDepth: string };
};

// The keys are the contract's, so that a season names a crop as every side does.
export { CROP_KEYS, type CropKey };

/**
 * FAO-56 Annex 8: "For many annual crops, Zr min can be estimated as 0.15 to 0.20 m". The smaller
 * value gives the smaller early root zone, so advice errs towards watering a young crop early.
 */
const ANNUAL_CROP_MIN_ROOT_DEPTH = 0.15;

export const TABLE_CROPS: Readonly<Record<CropKey, TableCrop>> = {
  'maize-grain': {
    name: 'Maize (grain)',
    kc: { initial: 0.3, midSeason: 1.2, end: 0.6 },
    stages: { initial: 30, development: 40, midSeason: 50, lateSeason: 50 },
    rootDepth: { min: ANNUAL_CROP_MIN_ROOT_DEPTH, max: 1.0 },
    maxRootDepthRange: [1.0, 1.7],
    depletionFraction: 0.55,
    height: 2,
    sources: {
      kc: 'Table 12, Maize, Field (grain): Kc ini 0.3 of the cereals, Kc end 0.60 for harvest at high grain moisture (0.35 after drying in the field)',
      stages: 'Table 11, Maize (grain), April, Idaho, USA: 30/40/50/50 days',
      rootDepth: 'Table 22, Maize, Field (grain): 1.0–1.7 m, p 0.55',
    },
  },
  potato: {
    name: 'Potato',
    kc: { initial: 0.5, midSeason: 1.15, end: 0.75 },
    stages: { initial: 30, development: 35, midSeason: 50, lateSeason: 30 },
    rootDepth: { min: ANNUAL_CROP_MIN_ROOT_DEPTH, max: 0.4 },
    maxRootDepthRange: [0.4, 0.6],
    depletionFraction: 0.35,
    height: 0.6,
    sources: {
      kc: 'Table 12, Potato: Kc ini 0.5 of the roots and tubers, Kc end 0.75 (about 0.40 for long-season potatoes with vine kill)',
      stages: 'Table 11, Potato, April, Europe: 30/35/50/30 days',
      rootDepth: 'Table 22, Potato: 0.4–0.6 m, p 0.35',
    },
  },
  'spring-wheat': {
    name: 'Spring wheat',
    kc: { initial: 0.3, midSeason: 1.15, end: 0.25 },
    stages: { initial: 20, development: 25, midSeason: 60, lateSeason: 30 },
    rootDepth: { min: ANNUAL_CROP_MIN_ROOT_DEPTH, max: 1.0 },
    maxRootDepthRange: [1.0, 1.5],
    depletionFraction: 0.55,
    height: 1,
    sources: {
      kc: 'Table 12, Spring Wheat: Kc ini 0.3 of the cereals, Kc end 0.25 (0.4 for hand-harvested crops)',
      stages: 'Table 11, Barley/Oats/Wheat, March/April, 35–45° latitude: 20/25/60/30 days',
      rootDepth: 'Table 22, Spring Wheat: 1.0–1.5 m, p 0.55',
    },
  },
  'winter-wheat': {
    name: 'Winter wheat',
    kc: { initial: 0.4, midSeason: 1.15, end: 0.25 },
    stages: { initial: 160, development: 75, midSeason: 75, lateSeason: 25 },
    rootDepth: { min: ANNUAL_CROP_MIN_ROOT_DEPTH, max: 1.5 },
    maxRootDepthRange: [1.5, 1.8],
    depletionFraction: 0.55,
    height: 1,
    sources: {
      kc: 'Table 12, Winter Wheat with frozen soils: Kc ini 0.4 (0.7 with non-frozen soils), Kc end 0.25',
      stages: 'Table 11, Winter Wheat, October, Idaho, USA: 160/75/75/25 days',
      rootDepth: 'Table 22, Winter Wheat: 1.5–1.8 m, p 0.55',
    },
  },
  'sugar-beet': {
    name: 'Sugar beet',
    kc: { initial: 0.35, midSeason: 1.2, end: 0.7 },
    stages: { initial: 50, development: 40, midSeason: 50, lateSeason: 40 },
    rootDepth: { min: ANNUAL_CROP_MIN_ROOT_DEPTH, max: 0.7 },
    maxRootDepthRange: [0.7, 1.2],
    depletionFraction: 0.55,
    height: 0.5,
    sources: {
      kc: 'Table 12, Sugar Beet: Kc end 0.70 with no irrigation in the last month (up to 1.0 when irrigated then)',
      stages: 'Table 11, Sugarbeet, April, Idaho, USA: 50/40/50/40 days',
      rootDepth: 'Table 22, Sugar Beet: 0.7–1.2 m, p 0.55',
    },
  },
  'alfalfa-hay': {
    name: 'Alfalfa (hay)',
    kc: { initial: 0.4, midSeason: 0.95, end: 0.9 },
    // Table 11 gives the whole season's initial and development stages (10, 30) and "var." for the
    // others: from the last -4 °C in spring to the first -4 °C in autumn, about 190 days in central
    // Europe. The 140 and 10 days are this product's choice, not printed values.
    stages: { initial: 10, development: 30, midSeason: 140, lateSeason: 10 },
    // An established stand greens up with its roots already at depth; a first-year stand is a custom crop.
    rootDepth: { min: 1.0, max: 1.0 },
    maxRootDepthRange: [1.0, 2.0],
    depletionFraction: 0.55,
    height: 0.7,
    sources: {
      kc: 'Table 12, Alfalfa Hay, averaged cutting effects: 0.40/0.95/0.90',
      stages: 'Table 11, Alfalfa, total season: 10/30 days, mid and late season "var." (140/10 chosen here)',
      rootDepth: 'Table 22, Alfalfa for hay: 1.0–2.0 m, p 0.55',
    },
  },
  soybean: {
    name: 'Soybean',
    kc: { initial: 0.4, midSeason: 1.15, end: 0.5 },
    stages: { initial: 20, development: 35, midSeason: 60, lateSeason: 25 },
    rootDepth: { min: ANNUAL_CROP_MIN_ROOT_DEPTH, max: 0.6 },
    maxRootDepthRange: [0.6, 1.3],
    depletionFraction: 0.5,
    height: 0.75,
    sources: {
      kc: 'Table 12, Soybeans: Kc ini 0.4 of the legumes, height 0.5–1.0 m (0.75 taken)',
      stages: 'Table 11, Soybeans, May, Central USA: 20/30-35/60/25 days (35, which makes the printed 140)',
      rootDepth: 'Table 22, Soybeans: 0.6–1.3 m, p 0.50',
    },
  },
};

export function isCropKey(value: string): value is CropKey {
  return (CROP_KEYS as readonly string[]).includes(value);
}
