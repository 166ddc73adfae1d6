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

/**
 * Irrigation advice (docs/advice.md): a machine's crop seasons, stored and served; the FAO-56
 * soil-water balance they feed is a set of pure functions beside them.
 */
export const adviceModule = fp(
  async (app: FastifyInstance) => {
    const { sprinklers, logs } = app;
    const cropSeasons = new CropSeasonsService({ db: app.database.db, sprinklers, logs });
    app.decorate('cropSeasons', cropSeasons);
    await app.register(cropSeasonsRoutes, { prefix: '/api', cropSeasons });
  },
  { name: 'advice', dependencies: ['database', 'authentication', 'sprinklers', 'logs'] },
);
