import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { RepeatingJob } from '../../time/repeating-job';
import { WeatherService } from './weather.service';

declare module 'fastify' {
  interface FastifyInstance {
    weather: WeatherService;
  }
}

export {
  STATION_ELEVATION_M,
  type SeenFrom,
  type StationDay,
  type StationDays,
  type WeatherNear,
  type WeatherService,
  presentSensorsNear,
} from './weather.service';
export type { SoilReading } from './weather.repository';

/** Every instance deletes readings beyond the retention this often (a delete done twice deletes nothing more). */
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Weather: what stations and soil sensors report through their machine's controller, and what a
 * machine's map shows of it (readings, rainfall, ETP over 7 days, soil moisture).
 */
export const weatherModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone' | 'readingsRetentionDays'>) => {
    const weather = new WeatherService(
      app.database.db,
      config.timeZone,
      app.log,
      app.quarantine,
      config.readingsRetentionDays,
    );
    app.decorate('weather', weather);
    app.gateway.handle('weather', (source, message) => weather.recordWeather(source, message));
    app.gateway.handle('soil', (source, message) => weather.recordSoil(source, message));
    app.health.check(() => weather.problems());
    const pruning = new RepeatingJob(
      async () => {
        await weather.prune();
      },
      { everyMs: PRUNE_EVERY_MS, onError: (error) => app.log.warn({ err: error }, 'pruning old readings failed') },
    );
    // The first prune at once, not awaited: after an upgrade it may take a while, and the server need not wait for it.
    app.addHook('onReady', async () => pruning.start({ firstAfterMs: 0 }));
    // Readings that arrived before the gateway stopped listening are stored before the database closes.
    app.addHook('onClose', async () => {
      await pruning.stop();
      await weather.flush();
    });
  },
  { name: 'weather', dependencies: ['database', 'machine-gateway', 'health', 'quarantine'] },
);
