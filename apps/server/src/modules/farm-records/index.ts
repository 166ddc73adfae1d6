import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { farmRecordsRoutes } from './farm-records.routes';
import { FarmRecordsService } from './farm-records.service';

declare module 'fastify' {
  interface FastifyInstance {
    farmRecords: FarmRecordsService;
  }
}

export type { FarmRecordsService } from './farm-records.service';
export type { FarmRecordRow } from './farm-records.table';
export { farmRecordsOfDays } from './farm-records.repository';

/**
 * The farm's own records of a machine (docs/advice.md, "The farm's own records"): a rain gauge's
 * rain, water from another source, a probe's reading typed in, kept and served; the water balance reads them at every answer.
 */
export const farmRecordsModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone'>) => {
    const { sprinklers, logs, weather } = app;
    const farmRecords = new FarmRecordsService({
      db: app.database.db,
      sprinklers,
      logs,
      weather,
      timeZone: config.timeZone,
    });
    app.decorate('farmRecords', farmRecords);
    await app.register(farmRecordsRoutes, { prefix: '/api', farmRecords });
  },
  {
    name: 'farm-records',
    dependencies: ['database', 'authentication', 'sprinklers', 'logs', 'telemetry', 'weather', 'crop-seasons'],
  },
);
