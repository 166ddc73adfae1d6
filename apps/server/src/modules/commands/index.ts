import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MachineCommands } from './commands.service';

declare module 'fastify' {
  interface FastifyInstance {
    commands: MachineCommands;
  }
}

export type { CommandAudit, FailureErrors, MachineCommands } from './commands.service';

/** Commands to machines: sent through the gateway, answered, and logged when they fail. */
export const commandsModule = fp(
  async (app: FastifyInstance) => {
    const { gateway, telemetry, logs } = app;
    app.decorate('commands', new MachineCommands({ db: app.database.db, gateway, telemetry, logs }));
  },
  { name: 'commands', dependencies: ['database', 'machine-gateway', 'telemetry', 'logs'] },
);
