import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { WeatherService } from './weather.service';

declare module 'fastify' {
  interface FastifyInstance {
    weather: WeatherService;
  }
}

export {
  type StationDay,
  type StationDays,
  type WeatherNear,
  type WeatherService,
  presentSensorsNear,
} from './weather.service';
export type { SoilReading } from './weather.repository';

/**
 * Weather: what stations and soil sensors report through their machine's controller, and what a
 * machine's map shows of it (readings, rainfall, ETP over 7 days, soil moisture).
 */
export const weatherModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone'>) => {
    const weather = new WeatherService(app.database.db, config.timeZone, app.log, app.quarantine);
    app.decorate('weather', weather);
    app.gateway.handle('weather', (source, message) => weather.recordWeather(source, message));
    app.gateway.handle('soil', (source, message) => weather.recordSoil(source, message));
    app.health.check(() => weather.problems());
    // Readings that arrived before the gateway stopped listening are stored before the database closes.
    app.addHook('onClose', () => weather.flush());
  },
  { name: 'weather', dependencies: ['database', 'machine-gateway', 'health', 'quarantine'] },
);
