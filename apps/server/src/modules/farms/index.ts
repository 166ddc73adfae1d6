import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { farmsRoutes } from './farms.routes';
import { FarmsService } from './farms.service';

/**
 * Farms (docs/roles.md): creating them, their members and roles, and the farm each machine
 * belongs to. Who may use what because of it is the access module's to decide.
 */
export const farmsModule = fp(
  async (app: FastifyInstance) => {
    const { access, users, sprinklers, logs } = app;
    const farms = new FarmsService({ db: app.database.db, access, users, sprinklers, logs });
    await app.register(farmsRoutes, { prefix: '/api', farms });
  },
  { name: 'farms', dependencies: ['database', 'authentication', 'access', 'users', 'sprinklers', 'logs'] },
);
