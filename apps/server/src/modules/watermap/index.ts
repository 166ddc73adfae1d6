import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { WaterAccounting } from './water-accounting';
import { watermapRoutes } from './watermap.routes';
import { WatermapService } from './watermap.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Turns stored telemetry into water on each machine's grid, in the background. */
    waterAccounting: WaterAccounting;
    /** The water on each machine's grid, for the routes and for other modules (`dailyWater`). */
    watermap: WatermapService;
  }
}

export type { AppliedCell } from './applied-water';
export {
  type CellDailyWater,
  LEAST_SHOWN_WATER_MM,
  type WatermapService,
  cellCentre,
  cellCorners,
} from './watermap.service';
export type { RunningSlice } from './watermap.repository';
export { WATER_GRID_STEP_M } from './water-accounting';
export { MAX_REPORT_GAP_MS } from './water-grid';

/** The watermap: the water each machine applied, per grid cell and day, counted from its telemetry. */
export const watermapModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone'>) => {
    const { sprinklers, storedReports } = app;
    const { db } = app.database;
    const accounting = new WaterAccounting({
      db,
      sprinklers,
      reports: storedReports,
      timeZone: config.timeZone,
      logger: app.log,
    });
    app.decorate('waterAccounting', accounting);
    const watermap = new WatermapService({
      db,
      sprinklers,
      accounting,
      reports: storedReports,
      timeZone: config.timeZone,
    });
    app.decorate('watermap', watermap);
    await app.register(watermapRoutes, { prefix: '/api', watermap });
    app.addHook('onReady', async () => accounting.start());
    app.addHook('onClose', () => accounting.stop());
  },
  { name: 'watermap', dependencies: ['database', 'authentication', 'sprinklers', 'telemetry'] },
);
