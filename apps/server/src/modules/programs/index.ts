import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { programsRoutes } from './programs.routes';
import { PrescriptionService } from './prescription.service';
import { ProgramsService } from './programs.service';

declare module 'fastify' {
  interface FastifyInstance {
    programs: ProgramsService;
  }
}

export type { ProgramsService } from './programs.service';

/** Programs: a machine's irrigation programs of sectors and doses, made by hand or from a prescription, and sending one to the machine. */
export const programsModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'maxProgramsPerMachine'>) => {
    const { sprinklers, commands, logs } = app;
    const programs = new ProgramsService({
      db: app.database.db,
      sprinklers,
      commands,
      logs,
      maxProgramsPerMachine: config.maxProgramsPerMachine,
    });
    app.decorate('programs', programs);
    sprinklers.showProgramsFrom(programs);
    const prescriptions = new PrescriptionService({ sprinklers });
    await app.register(programsRoutes, { prefix: '/api', programs, prescriptions });
  },
  { name: 'programs', dependencies: ['database', 'authentication', 'sprinklers', 'commands', 'logs'] },
);
