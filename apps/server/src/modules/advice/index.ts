import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { applicationDepthRoutes } from './application-depth.routes';
import { ApplicationDepthService } from './application-depth.service';
import { cropSeasonsRoutes } from './crop-seasons.routes';
import { farmRecordsRoutes } from './farm-records.routes';
import { FarmRecordsService } from './farm-records.service';
import { ForecastClient } from './forecast';
import { CropSeasonsService } from './crop-seasons.service';
import { nextIrrigationRoutes } from './next-irrigation.routes';
import { programFromAdviceRoutes } from './program-from-advice.routes';
import { ProgramFromAdviceService } from './program-from-advice.service';
import { NextIrrigationService } from './next-irrigation.service';
import { stationDaysRoutes } from './station-days.routes';
import { StationDaysService } from './station-days.service';
import { waterBalanceRoutes } from './water-balance.routes';
import { WaterBalanceService } from './water-balance.service';

declare module 'fastify' {
  interface FastifyInstance {
    cropSeasons: CropSeasonsService;
    waterBalance: WaterBalanceService;
    nextIrrigation: NextIrrigationService;
  }
}

export type { CropSeasonsService } from './crop-seasons.service';

/**
 * Irrigation advice (docs/advice.md): a machine's crop seasons, stored and served, and the FAO-56
 * soil-water balance they feed (pure functions beside them) from the watermap's water and the
 * nearest station's weather, and a station's days as the balance takes them.
 */
export const adviceModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone' | 'forecastUrl' | 'programFromAdviceMarginHours'>) => {
    const { sprinklers, logs, watermap, weather, storedReports } = app;
    const { db } = app.database;
    const cropSeasons = new CropSeasonsService({ db, sprinklers, logs });
    app.decorate('cropSeasons', cropSeasons);
    await app.register(cropSeasonsRoutes, { prefix: '/api', cropSeasons });
    const applicationDepth = new ApplicationDepthService({ db, sprinklers, logs, reports: storedReports });
    await app.register(applicationDepthRoutes, { prefix: '/api', applicationDepth });
    const waterBalance = new WaterBalanceService({
      db,
      sprinklers,
      watermap,
      weather,
      timeZone: config.timeZone,
      applicationDepth,
      ...(config.forecastUrl
        ? {
            forecast: new ForecastClient({
              url: config.forecastUrl,
              outbound: app.outbound,
              timeZone: config.timeZone,
              onFailure: (error) => app.log.warn({ error }, 'forecast service failed: the advice uses the recent ET0'),
            }),
          }
        : {}),
    });
    await app.register(waterBalanceRoutes, { prefix: '/api', waterBalance });
    app.decorate('waterBalance', waterBalance);
    const nextIrrigation = new NextIrrigationService({
      db,
      access: app.access,
      waterBalance,
      timeZone: config.timeZone,
    });
    await app.register(nextIrrigationRoutes, { prefix: '/api', nextIrrigation });
    const farmRecords = new FarmRecordsService({
      db,
      sprinklers,
      logs,
      weather,
      timeZone: config.timeZone,
      changed: (sprinklerId) => nextIrrigation.forget(sprinklerId),
    });
    await app.register(farmRecordsRoutes, { prefix: '/api', farmRecords });
    const programFromAdvice = new ProgramFromAdviceService({
      sprinklers,
      waterBalance,
      applicationDepth,
      timeZone: config.timeZone,
      marginHours: config.programFromAdviceMarginHours,
    });
    await app.register(programFromAdviceRoutes, { prefix: '/api', programFromAdvice });
    app.decorate('nextIrrigation', nextIrrigation);
    const stationDays = new StationDaysService({ db, sprinklers, weather, timeZone: config.timeZone });
    await app.register(stationDaysRoutes, { prefix: '/api', stationDays });
  },
  {
    name: 'advice',
    dependencies: [
      'database',
      'authentication',
      'access',
      'sprinklers',
      'logs',
      'telemetry',
      'watermap',
      'weather',
      'outbound',
    ],
  },
);
