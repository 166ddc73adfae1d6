import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { nextIrrigationRoutes } from './next-irrigation.routes';
import { NextIrrigationService } from './next-irrigation.service';
import { programFromAdviceRoutes } from './program-from-advice.routes';
import { ProgramFromAdviceService } from './program-from-advice.service';

export type { ProgramFromAdviceService } from './program-from-advice.service';

declare module 'fastify' {
  interface FastifyInstance {
    nextIrrigation: NextIrrigationService;
    programFromAdvice: ProgramFromAdviceService;
  }
}

/**
 * Irrigation advice (docs/advice.md): what acts on the water balance: each machine's next
 * irrigation for the machines table and the water-stress watch, and a program from the advice.
 */
export const adviceModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone' | 'programFromAdviceMarginHours'>) => {
    const { sprinklers, waterBalance, applicationDepth, farmRecords } = app;
    const nextIrrigation = new NextIrrigationService({
      db: app.database.db,
      access: app.access,
      waterBalance,
      timeZone: config.timeZone,
    });
    await app.register(nextIrrigationRoutes, { prefix: '/api', nextIrrigation });
    // A record changes the balance the kept next irrigation was read from.
    farmRecords.tellChangesTo((sprinklerId) => nextIrrigation.forget(sprinklerId));
    const programFromAdvice = new ProgramFromAdviceService({
      sprinklers,
      waterBalance,
      applicationDepth,
      timeZone: config.timeZone,
      marginHours: config.programFromAdviceMarginHours,
    });
    await app.register(programFromAdviceRoutes, { prefix: '/api', programFromAdvice });
    app.decorate('nextIrrigation', nextIrrigation);
    app.decorate('programFromAdvice', programFromAdvice);
  },
  {
    name: 'advice',
    dependencies: [
      'database',
      'authentication',
      'access',
      'sprinklers',
      'crop-seasons',
      'application-depth',
      'farm-records',
      'water-balance',
    ],
  },
);
