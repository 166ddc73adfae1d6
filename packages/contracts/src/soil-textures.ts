/**
 * Soil water characteristics by texture class (USDA classification): FAO-56 (1998) Table 19,
 * "Typical soil water characteristics for different soil types". Water contents are volumetric,
 * m³/m³. Here, beside the keys, so that the server's advice and the simulator's soil probes read
 * the same soils.
 */
import { SOIL_TEXTURE_KEYS, type SoilTextureKey } from './crop-seasons';

/** Volumetric water content at field capacity and at the permanent wilting point, m³/m³. */
export type SoilWater = { fieldCapacity: number; wiltingPoint: number };

export type SoilTexture = SoilWater & {
  name: string;
  /** Table 19's ranges; the defaults above are the middle of each range. */
  fieldCapacityRange: readonly [number, number];
  wiltingPointRange: readonly [number, number];
  /** Table 19's range of θFC − θWP, printed beside the others (it is not always their difference). */
  availableWaterRange: readonly [number, number];
};

function texture(
  name: string,
  fieldCapacityRange: readonly [number, number],
  wiltingPointRange: readonly [number, number],
  availableWaterRange: readonly [number, number],
): SoilTexture {
  const middle = ([low, high]: readonly [number, number]) => Math.round(((low + high) / 2) * 1000) / 1000;
  return {
    name,
    fieldCapacity: middle(fieldCapacityRange),
    wiltingPoint: middle(wiltingPointRange),
    fieldCapacityRange,
    wiltingPointRange,
    availableWaterRange,
  };
}

export const SOIL_TEXTURES: Readonly<Record<SoilTextureKey, SoilTexture>> = {
  sand: texture('Sand', [0.07, 0.17], [0.02, 0.07], [0.05, 0.11]),
  'loamy-sand': texture('Loamy sand', [0.11, 0.19], [0.03, 0.1], [0.06, 0.12]),
  'sandy-loam': texture('Sandy loam', [0.18, 0.28], [0.06, 0.16], [0.11, 0.15]),
  loam: texture('Loam', [0.2, 0.3], [0.07, 0.17], [0.13, 0.18]),
  'silt-loam': texture('Silt loam', [0.22, 0.36], [0.09, 0.21], [0.13, 0.19]),
  silt: texture('Silt', [0.28, 0.36], [0.12, 0.22], [0.16, 0.2]),
  'silty-clay-loam': texture('Silty clay loam', [0.3, 0.37], [0.17, 0.24], [0.13, 0.18]),
  'silty-clay': texture('Silty clay', [0.3, 0.42], [0.17, 0.29], [0.13, 0.19]),
  clay: texture('Clay', [0.32, 0.4], [0.2, 0.24], [0.12, 0.2]),
};

export function isSoilTextureKey(value: string): value is SoilTextureKey {
  return (SOIL_TEXTURE_KEYS as readonly string[]).includes(value);
}
