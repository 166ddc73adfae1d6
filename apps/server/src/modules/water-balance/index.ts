import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { ForecastClient } from './forecast';
import { stationDaysRoutes } from './station-days.routes';
import { StationDaysService } from './station-days.service';
import { waterBalanceRoutes } from './water-balance.routes';
import { WaterBalanceService } from './water-balance.service';

declare module 'fastify' {
  interface FastifyInstance {
    waterBalance: WaterBalanceService;
  }
}

export type { WaterBalanceService } from './water-balance.service';
export type { ForecastDay } from './forecast';
export { irrigationDoses } from './irrigation-advice';
export { refuseDayAfterToday } from './water-balance.days';

/**
 * The FAO-56 soil-water balance of a machine's field (docs/advice.md): its crop seasons' cells run
 * day by day (pure functions beside the service) on the watermap's water, the nearest station's
 * weather, the farm's records and the probes; and a station's days as the balance takes them.
 */
export const waterBalanceModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone' | 'forecastUrl'>) => {
    const { sprinklers, watermap, weather, applicationDepth } = app;
    const { db } = app.database;
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
    const stationDays = new StationDaysService({ db, sprinklers, weather, timeZone: config.timeZone });
    await app.register(stationDaysRoutes, { prefix: '/api', stationDays });
  },
  {
    name: 'water-balance',
    dependencies: [
      'database',
      'authentication',
      'sprinklers',
      'telemetry',
      'watermap',
      'weather',
      'outbound',
      'crop-seasons',
      'application-depth',
      'farm-records',
    ],
  },
);
