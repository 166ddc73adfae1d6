import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { asAppliedRoutes } from './as-applied.routes';
import { AsAppliedService } from './as-applied.service';

/** A user's water, out: a machine's as-applied map as GeoJSON, a zipped shapefile or ISOXML task data. */
export const asAppliedModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone'>) => {
    const asApplied = new AsAppliedService({
      sprinklers: app.sprinklers,
      watermap: app.watermap,
      timeZone: config.timeZone,
    });
    await app.register(asAppliedRoutes, { prefix: '/api', asApplied });
  },
  { name: 'as-applied', dependencies: ['database', 'authentication', 'sprinklers', 'watermap'] },
);
