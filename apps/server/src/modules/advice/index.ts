import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { cropSeasonsRoutes } from './crop-seasons.routes';
import { CropSeasonsService } from './crop-seasons.service';
import { nextIrrigationRoutes } from './next-irrigation.routes';
import { NextIrrigationService } from './next-irrigation.service';
import { waterBalanceRoutes } from './water-balance.routes';
import { WaterBalanceService } from './water-balance.service';

declare module 'fastify' {
  interface FastifyInstance {
    cropSeasons: CropSeasonsService;
    nextIrrigation: NextIrrigationService;
  }
}

export type { CropSeasonsService } from './crop-seasons.service';

/**
 * Irrigation advice (docs/advice.md): a machine's crop seasons, stored and served, and the FAO-56
 * soil-water balance they feed (pure functions beside them) from the watermap's water and the
 * nearest station's weather.
 */
export const adviceModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone'>) => {
    const { sprinklers, logs, watermap, weather } = app;
    const { db } = app.database;
    const cropSeasons = new CropSeasonsService({ db, sprinklers, logs });
    app.decorate('cropSeasons', cropSeasons);
    await app.register(cropSeasonsRoutes, { prefix: '/api', cropSeasons });
    const waterBalance = new WaterBalanceService({ db, sprinklers, watermap, weather, timeZone: config.timeZone });
    await app.register(waterBalanceRoutes, { prefix: '/api', waterBalance });
    const nextIrrigation = new NextIrrigationService({
      db,
      access: app.access,
      waterBalance,
      timeZone: config.timeZone,
    });
    await app.register(nextIrrigationRoutes, { prefix: '/api', nextIrrigation });
    app.decorate('nextIrrigation', nextIrrigation);
  },
  {
    name: 'advice',
    dependencies: ['database', 'authentication', 'access', 'sprinklers', 'logs', 'telemetry', 'watermap', 'weather'],
  },
);
