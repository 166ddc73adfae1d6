import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { RepeatingJob } from '../../time/repeating-job';
import { MachineCommands } from './commands.service';

/** How often every instance looks for commands a stopped server left pending. */
const SETTLE_EVERY_MS = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    commands: MachineCommands;
  }
}

export type { CommandAudit, CommandSending, FailureErrors, MachineCommands } from './commands.service';

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
    const settling = new RepeatingJob(
      async () => {
        await commands.settleAbandoned();
      },
      { everyMs: SETTLE_EVERY_MS, onError: (error) => app.log.warn({ err: error }, 'settling commands failed') },
    );
    app.addHook('onReady', async () => {
      settling.start();
      // A failed run is logged by onError: the server starts all the same.
      await settling.runNow().catch(() => undefined);
    });
    app.addHook('onClose', () => settling.stop());
  },
  { name: 'commands', dependencies: ['database', 'machine-gateway', 'telemetry', 'logs'] },
);
