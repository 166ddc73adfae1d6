import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { MachineCommands } from './commands.service';

/** How often every instance looks for commands a stopped server left pending. */
const SETTLE_EVERY_MS = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    commands: MachineCommands;
  }
}

export type { CommandAudit, FailureErrors, MachineCommands } from './commands.service';

/** Commands to machines: recorded, sent through the gateway, answered, and logged when they fail. */
export const commandsModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'commandTimeoutMs'>) => {
    const { gateway, telemetry, logs } = app;
    const commands = new MachineCommands({ db: app.database.db, gateway, telemetry, logs, ...config });
    app.decorate('commands', commands);
    gateway.watchLateReplies((late) => {
      commands.settleLate(late).catch((error: unknown) => app.log.warn({ err: error }, 'settling a late reply failed'));
    });
    // At start and every few seconds: a server that stopped while it waited leaves commands pending.
    const settle = () =>
      commands.settleAbandoned().catch((error: unknown) => app.log.warn({ err: error }, 'settling commands failed'));
    const timer = setInterval(settle, SETTLE_EVERY_MS).unref();
    app.addHook('onReady', async () => {
      await settle();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'commands', dependencies: ['database', 'machine-gateway', 'telemetry', 'logs'] },
);
