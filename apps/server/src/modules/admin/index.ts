import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { adminRoutes } from './admin.routes';
import { AdminService } from './admin.service';

/**
 * The administrators' panel across users and machines (docs/product.md#roles): the list of users with their
 * machines, the list of machines with their users, and granting or revoking access.
 */
export const adminModule = fp(
  async (app: FastifyInstance) => {
    const { access, users, sprinklers, logs } = app;
    const admin = new AdminService({ db: app.database.db, access, users, sprinklers, logs });
    await app.register(adminRoutes, { prefix: '/api', admin });
  },
  { name: 'admin', dependencies: ['database', 'authentication', 'access', 'users', 'sprinklers', 'logs'] },
);
