import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Config, PRODUCT_NAME } from '../../config';
import { DealersService } from './dealers.service';
import { FarmInvitations } from './farm-invitations.service';
import { farmsRoutes } from './farms.routes';
import { FarmsService } from './farms.service';

/**
 * Farms (docs/roles.md): creating them, their members and roles, invitations by e-mail, the
 * farm each machine belongs to, and the dealers farms grant access. Who may use what because of it is the access module's to decide.
 */
export const farmsModule = fp(
  async (app: FastifyInstance, options: Pick<Config, 'publicUrl'>) => {
    const { access, users, sprinklers, logs, mail, incidentDesk, autopilot } = app;
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
    const dealers = new DealersService({
      db,
      access,
      users,
      sprinklers,
      logs,
      incidents: incidentDesk,
      autopilot,
      assertRuns: (tx, actor, farmId) => farms.assertRuns(tx, actor, farmId),
    });
    await app.register(farmsRoutes, { prefix: '/api', farms, invitations, dealers });
  },
  {
    name: 'farms',
    dependencies: [
      'database',
      'authentication',
      'access',
      'users',
      'sprinklers',
      'logs',
      'mail',
      'incidents',
      'autopilot',
    ],
  },
);
