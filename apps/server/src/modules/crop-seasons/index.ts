import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { cropSeasonsRoutes } from './crop-seasons.routes';
import { CropSeasonsService } from './crop-seasons.service';

declare module 'fastify' {
  interface FastifyInstance {
    cropSeasons: CropSeasonsService;
  }
}

export type { CropSeasonsService } from './crop-seasons.service';
export type { CropSeasonRow } from './crop-seasons.table';
export { listCropSeasons, seasonedMachines } from './crop-seasons.repository';
export {
  STANDARD_MIN_HUMIDITY,
  STANDARD_WIND,
  climateAdjustedCoefficient,
  climateAdjustedEndCoefficient,
  cropCoefficientOnDay,
  growthStageOnDay,
  seasonLength,
} from './crop-coefficient';
export type { GrowthStages } from './crop-table';
export {
  depletionFractionForEvapotranspiration,
  depletionFromWaterContent,
  readilyAvailableWater,
  rootDepthOnDay,
  totalAvailableWater,
} from './root-zone';
export type { SoilWater } from './soil-table';
export { type SeasonCrop, runsOn, seasonCrop, soilWater } from './season-crop';

/**
 * Crop seasons (docs/advice.md): a machine's crops on their soils from emergence, over the whole
 * circle or a crop area of its area map, stored and served; and what the water balance knows of
 * a crop and a soil (FAO-56's crop table, Kc through the stages, the root zone).
 */
export const cropSeasonsModule = fp(
  async (app: FastifyInstance) => {
    const { sprinklers, logs } = app;
    const cropSeasons = new CropSeasonsService({ db: app.database.db, sprinklers, logs });
    app.decorate('cropSeasons', cropSeasons);
    await app.register(cropSeasonsRoutes, { prefix: '/api', cropSeasons });
  },
  { name: 'crop-seasons', dependencies: ['database', 'authentication', 'sprinklers', 'logs'] },
);
