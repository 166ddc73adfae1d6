/**
 * A season's crop and soil as the water balance takes them: the crop table's or the user's own
 * values, and the days the season runs. Here beside the seasons, since the farm records check a
 * record's zone against the seasons running that day, and the balance builds on both.
 */
import type { CropChoice, SoilChoice } from '@pivot/contracts';
import { seasonDay, seasonLength } from './crop-coefficient';
import { type CropKey, type CropParameters, TABLE_CROPS } from './crop-table';
import type { CropSeasonRow } from './crop-seasons.table';
import { SOIL_TEXTURES, type SoilWater } from './soil-table';

/** A crop as the balance uses it. */
export type SeasonCrop = {
  parameters: CropParameters;
  /** Plant height for the climate adjustment of Kc mid and Kc end; null where Kc is taken as given. */
  height: number | null;
  /** Whether p follows the day's ETc; a p typed in is taken as given. */
  adjustDepletionFraction: boolean;
};

/** A crop of the table: Kc mid and end adjusted for climate, p for ETc unless the season gives its own. */
export function tableSeasonCrop(key: CropKey, depletionFraction?: number): SeasonCrop {
  const crop = TABLE_CROPS[key];
  return {
    parameters: {
      kc: crop.kc,
      stages: crop.stages,
      rootDepth: crop.rootDepth,
      depletionFraction: depletionFraction ?? crop.depletionFraction,
    },
    height: crop.height,
    adjustDepletionFraction: depletionFraction === undefined,
  };
}

/** A crop with the user's own Kc values, stages, root depths and p: all taken as given. */
export function customSeasonCrop(parameters: CropParameters): SeasonCrop {
  return { parameters, height: null, adjustDepletionFraction: false };
}

export function seasonCrop(crop: CropChoice, depletionFraction: number | null): SeasonCrop {
  if (typeof crop === 'string') return tableSeasonCrop(crop, depletionFraction ?? undefined);
  const [initial, midSeason, end] = crop.kc;
  const [initialDays, development, midSeasonDays, lateSeason] = crop.stages;
  return customSeasonCrop({
    kc: { initial, midSeason, end },
    stages: { initial: initialDays, development, midSeason: midSeasonDays, lateSeason },
    rootDepth: { min: crop.rootDepth[0], max: crop.rootDepth[1] },
    depletionFraction: depletionFraction ?? crop.p,
  });
}

export function soilWater(soil: SoilChoice): SoilWater {
  return typeof soil === 'string' ? SOIL_TEXTURES[soil] : soil;
}

/**
 * Whether a season runs on a day, `yyyy-mm-dd`: from its emergence (season day 1) through its
 * last day (Table 11's stages).
 */
export function runsOn(season: CropSeasonRow, isoDate: string): boolean {
  const day = seasonDay(season.emergence, isoDate);
  const stages = seasonCrop(season.crop, season.depletionFraction).parameters.stages;
  return day >= 1 && day <= seasonLength(stages);
}
