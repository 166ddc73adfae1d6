import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { applicationDepthRoutes } from './application-depth.routes';
import { ApplicationDepthService } from './application-depth.service';

declare module 'fastify' {
  interface FastifyInstance {
    applicationDepth: ApplicationDepthService;
  }
}

export type { ApplicationDepthService } from './application-depth.service';
export { hoursPerCircleFromFlow, percentTimerPlan } from './application-depth';

/**
 * A machine's depth at 100 % (docs/advice.md, "The percent timer"): an administrator's setting,
 * or learned from its reports; what turns the balance's gross dose into a percent timer.
 */
export const applicationDepthModule = fp(
  async (app: FastifyInstance) => {
    const { sprinklers, logs, storedReports } = app;
    const applicationDepth = new ApplicationDepthService({
      db: app.database.db,
      sprinklers,
      logs,
      reports: storedReports,
    });
    app.decorate('applicationDepth', applicationDepth);
    await app.register(applicationDepthRoutes, { prefix: '/api', applicationDepth });
  },
  {
    name: 'application-depth',
    dependencies: ['database', 'authentication', 'sprinklers', 'logs', 'telemetry', 'watermap'],
  },
);
