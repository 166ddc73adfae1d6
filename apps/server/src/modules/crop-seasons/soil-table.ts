/**
 * Soil water characteristics by texture class: FAO-56 (1998) Table 19. The table lives in the
 * contracts, beside the keys, so that the simulator's soil probes read the same soils; a season's
 * soil is a class (its defaults shown and editable) or its own θFC and θWP.
 */
export {
  SOIL_TEXTURES,
  SOIL_TEXTURE_KEYS,
  type SoilTexture,
  type SoilTextureKey,
  type SoilWater,
  isSoilTextureKey,
} from '@pivot/contracts';
