import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AccessService } from './access.service';

declare module 'fastify' {
  interface FastifyInstance {
    access: AccessService;
  }
}

export type { AccessService, DealerGrantRow, DealerRow, FarmRow, FarmSummaryRow } from './access.service';

/**
 * Access: which users may use which machines (docs/roles.md): the farms, their members and
 * machines, and the grants. It knows only those, so every module that needs them, the activity
 * log included, can build on it.
 */
export const accessModule = fp(
  async (app: FastifyInstance) => {
    app.decorate('access', new AccessService());
  },
  { name: 'access', dependencies: ['database'] },
);
