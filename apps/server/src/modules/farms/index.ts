import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Config, PRODUCT_NAME } from '../../config';
import { FarmInvitations } from './farm-invitations.service';
import { farmsRoutes } from './farms.routes';
import { FarmsService } from './farms.service';

/**
 * Farms (docs/roles.md): creating them, their members and roles, invitations by e-mail, and
 * the farm each machine belongs to. Who may use what because of it is the access module's to decide.
 */
export const farmsModule = fp(
  async (app: FastifyInstance, options: Pick<Config, 'publicUrl'>) => {
    const { access, users, sprinklers, logs, mail } = app;
    const { db } = app.database;
    const farms = new FarmsService({ db, access, users, sprinklers, logs });
    const invitations = new FarmInvitations({
      db,
      access,
      users,
      sprinklers,
      logs,
      mail,
      publicUrl: options.publicUrl,
      productName: PRODUCT_NAME,
      mayInvite: (tx, actor, farmId, role) => farms.assertMayInvite(tx, actor, farmId, role),
    });
    await app.register(farmsRoutes, { prefix: '/api', farms, invitations });
  },
  { name: 'farms', dependencies: ['database', 'authentication', 'access', 'users', 'sprinklers', 'logs', 'mail'] },
);
