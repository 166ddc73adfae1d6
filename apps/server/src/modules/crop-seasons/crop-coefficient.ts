/**
 * The single crop coefficient Kc through a season: FAO-56 (1998) chapter 6, Eq. 62, 65 and 66.
 * Days are counted as Eq. 66 counts them: day 1 is the day of emergence (planting, or green-up
 * for a perennial).
 */
import type { CropCoefficients, GrowthStages } from './crop-table';

const DAY_MS = 86_400_000;

/**
 * The season day of a calendar date, both `yyyy-mm-dd`: 1 on the day of emergence, 0 the day
 * before. The balance's daily series start on day 1.
 */
export function seasonDay(emergence: string, date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${emergence}T00:00:00Z`)) / DAY_MS) + 1;
}

export type GrowthStage = 'initial' | 'development' | 'midSeason' | 'lateSeason' | 'over';

export function seasonLength(stages: GrowthStages): number {
  return stages.initial + stages.development + stages.midSeason + stages.lateSeason;
}

/** The last day of the development stage: roots reach their maximum then (Annex 8, Eq. 8-1/8-2). */
export function endOfDevelopment(stages: GrowthStages): number {
  return stages.initial + stages.development;
}

export function growthStageOnDay(stages: GrowthStages, day: number): GrowthStage {
  if (day <= stages.initial) return 'initial';
  if (day <= stages.initial + stages.development) return 'development';
  if (day <= stages.initial + stages.development + stages.midSeason) return 'midSeason';
  if (day <= seasonLength(stages)) return 'lateSeason';
  return 'over';
}

/**
 * Kc on a day of the season (Eq. 66): constant through the initial and mid-season stages, a
 * straight line from Kc ini to Kc mid through the development stage and from Kc mid to Kc end
 * through the late season. After the last day it stays at Kc end.
 */
export function cropCoefficientOnDay(kc: CropCoefficients, stages: GrowthStages, day: number): number {
  const startOfDevelopment = stages.initial;
  const startOfMidSeason = startOfDevelopment + stages.development;
  const startOfLateSeason = startOfMidSeason + stages.midSeason;
  switch (growthStageOnDay(stages, day)) {
    case 'initial':
      return kc.initial;
    case 'development':
      return kc.initial + ((day - startOfDevelopment) / stages.development) * (kc.midSeason - kc.initial);
    case 'midSeason':
      return kc.midSeason;
    case 'lateSeason':
      return kc.midSeason + ((day - startOfLateSeason) / stages.lateSeason) * (kc.end - kc.midSeason);
    case 'over':
      return kc.end;
  }
}

/** The standard climate of Table 12: mean minimum relative humidity 45 %, wind at 2 m 2 m/s. */
export const STANDARD_MIN_HUMIDITY = 45;
export const STANDARD_WIND = 2;

/** The ranges Eq. 62 and 65 hold for; means outside them are taken at the nearest limit. */
const WIND_LIMITS = [1, 6] as const;
const MIN_HUMIDITY_LIMITS = [20, 80] as const;
const HEIGHT_LIMITS = [0.1, 10] as const;

function within(value: number, [low, high]: readonly [number, number]): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Kc mid (Eq. 62), or Kc end (Eq. 65), adjusted from Table 12's sub-humid standard to the mean
 * wind speed at 2 m (m/s) and mean daily minimum relative humidity (%) of its stage, for a crop of
 * the given height (m): Kc + [0.04 (u2 − 2) − 0.004 (RHmin − 45)] (h / 3)^0.3.
 */
export function climateAdjustedCoefficient(
  tabulated: number,
  meanWind: number,
  meanMinHumidity: number,
  height: number,
): number {
  const wind = within(meanWind, WIND_LIMITS);
  const humidity = within(meanMinHumidity, MIN_HUMIDITY_LIMITS);
  const heightFactor = (within(height, HEIGHT_LIMITS) / 3) ** 0.3;
  return tabulated + (0.04 * (wind - STANDARD_WIND) - 0.004 * (humidity - STANDARD_MIN_HUMIDITY)) * heightFactor;
}

/** FAO-56: "Equation 65 is only applied when the tabulated values for Kc end exceed 0.45". */
export const KC_END_ADJUSTED_FROM = 0.45;

export function climateAdjustedEndCoefficient(
  tabulated: number,
  meanWind: number,
  meanMinHumidity: number,
  height: number,
): number {
  if (tabulated < KC_END_ADJUSTED_FROM) return tabulated;
  return climateAdjustedCoefficient(tabulated, meanWind, meanMinHumidity, height);
}
