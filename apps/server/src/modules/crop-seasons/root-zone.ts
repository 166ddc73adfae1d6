/**
 * The root zone's water: FAO-56 (1998) chapter 8, Eq. 82–84 and 87, with the rooting depth of
 * Annex 8 (Eq. 8-3). Depths of water are mm, water contents m³/m³, rooting depths m.
 */
import { endOfDevelopment } from './crop-coefficient';
import type { GrowthStages, RootDepths } from './crop-table';
import type { SoilWater } from './soil-table';

/**
 * The effective rooting depth on a day of the season (Annex 8, Eq. 8-3): a straight line in time
 * from the depth at emergence on day 1 to the maximum at the end of the development stage, where
 * Eq. 8-1/8-2 have it reached ("by the beginning of the midseason"); the maximum after that.
 */
export function rootDepthOnDay(rootDepth: RootDepths, stages: GrowthStages, day: number): number {
  const lastGrowingDay = endOfDevelopment(stages);
  if (day >= lastGrowingDay || lastGrowingDay <= 1) return rootDepth.max;
  if (day <= 1) return rootDepth.min;
  return rootDepth.min + ((rootDepth.max - rootDepth.min) * (day - 1)) / (lastGrowingDay - 1);
}

/** Total available water in the root zone, mm (Eq. 82): 1000 (θFC − θWP) Zr. */
export function totalAvailableWater(soil: SoilWater, rootDepth: number): number {
  return Math.max(0, 1000 * (soil.fieldCapacity - soil.wiltingPoint) * rootDepth);
}

/** Readily available water, mm (Eq. 83): p TAW. */
export function readilyAvailableWater(depletionFraction: number, totalAvailable: number): number {
  return depletionFraction * totalAvailable;
}

/** FAO-56 chapter 8 bounds the adjusted p to 0.1 ≤ p ≤ 0.8. */
const DEPLETION_FRACTION_LIMITS = [0.1, 0.8] as const;

/**
 * Table 22's p (given for ETc ≈ 5 mm/day) adjusted to the day's crop evapotranspiration, mm/day:
 * p = p(Table 22) + 0.04 (5 − ETc), within 0.1 … 0.8.
 */
export function depletionFractionForEvapotranspiration(tabulated: number, cropEvapotranspiration: number): number {
  const adjusted = tabulated + 0.04 * (5 - cropEvapotranspiration);
  return Math.min(DEPLETION_FRACTION_LIMITS[1], Math.max(DEPLETION_FRACTION_LIMITS[0], adjusted));
}

/**
 * The water stress coefficient Ks (Eq. 84): 1 while the depletion is within RAW, then falling in a
 * straight line to 0 at TAW: (TAW − Dr) / (TAW − RAW).
 */
export function waterStressCoefficient(depletion: number, totalAvailable: number, readilyAvailable: number): number {
  if (depletion <= readilyAvailable) return 1;
  return Math.max(0, (totalAvailable - depletion) / (totalAvailable - readilyAvailable));
}

/**
 * The root zone's depletion from a measured water content (Eq. 87): 1000 (θFC − θ) Zr, held to
 * 0 … TAW (Eq. 86): water above field capacity drains the same day, and none is below wilting point.
 */
export function depletionFromWaterContent(soil: SoilWater, waterContent: number, rootDepth: number): number {
  const depletion = 1000 * (soil.fieldCapacity - waterContent) * rootDepth;
  return Math.min(totalAvailableWater(soil, rootDepth), Math.max(0, depletion));
}
