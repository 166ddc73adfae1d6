/**
 * The Soil water layer's classes: a cell's root-zone depletion as a share of its TAW (docs/advice.md),
 * from wet (field capacity) to dry (wilting point). The last class runs to 100 %.
 */
export const SOIL_WATER_CLASSES = [
  { upTo: 0.2, color: '#15803d' },
  { upTo: 0.4, color: '#65a30d' },
  { upTo: 0.6, color: '#eab308' },
  { upTo: 0.8, color: '#ea580c' },
  { upTo: Number.POSITIVE_INFINITY, color: '#b91c1c' },
] as const;

/** The share of TAW depleted, 0–1 (0 where TAW is 0: nothing can be taken up, nothing is missing). */
export function depletionShare(depletion: number, taw: number): number {
  return taw > 0 ? Math.min(1, Math.max(0, depletion / taw)) : 0;
}

export function soilWaterColor(share: number): string {
  return (SOIL_WATER_CLASSES.find((soilClass) => share < soilClass.upTo) ?? SOIL_WATER_CLASSES.at(-1)!).color;
}
