import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { RepeatingJob } from '../../time/repeating-job';
import { quarantineRoutes } from './quarantine.routes';
import { QuarantineService } from './quarantine.service';

declare module 'fastify' {
  interface FastifyInstance {
    quarantine: QuarantineService;
  }
}

export type { QuarantineService, SetAsideMessage } from './quarantine.service';

const PRUNE_EVERY_MS = 60 * 60_000;
const MINUTE_MS = 60_000;

/**
 * Machine messages set aside instead of stored: those the gateway drops for breaking the
 * protocol, and those the database refuses (the telemetry module hands them here). Kept a few
 * a minute per machine, shown to administrators, pruned after QUARANTINE_RETENTION_DAYS.
 */
export const quarantineModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'quarantineRetentionDays'>) => {
    const quarantine = new QuarantineService({ db: app.database.db, retentionDays: config.quarantineRetentionDays });
    app.decorate('quarantine', quarantine);
    app.gateway.watchRejections((rejected) => {
      quarantine
        .setAside(rejected)
        .catch((error: unknown) =>
          app.log.warn({ err: error, topic: rejected.topic }, 'setting a message aside failed'),
        );
    });
    app.health.check(() => quarantine.problems());
    await app.register(quarantineRoutes, { prefix: '/api', quarantine });

    const warn = (what: string) => (error: unknown) => app.log.warn({ err: error }, `${what} failed`);
    const pruning = new RepeatingJob(() => quarantine.prune(), {
      everyMs: PRUNE_EVERY_MS,
      onError: warn('pruning the quarantine'),
    });
    // A flood that stopped still gets its count written once its minute is over.
    const counting = new RepeatingJob(() => quarantine.closeMinutes(), {
      everyMs: MINUTE_MS,
      onError: warn('counting a flood'),
    });
    app.addHook('onReady', async () => {
      pruning.start();
      counting.start();
      // A failed run is logged by onError: the server starts all the same.
      await pruning.runNow().catch(() => undefined);
    });
    // After the gateway stopped listening (it closes first), the last counts are written while the database is open.
    app.addHook('onClose', async () => {
      await pruning.stop();
      await counting.stop();
      await quarantine.closeMinutes({ all: true }).catch(warn('counting a flood'));
    });
  },
  { name: 'quarantine', dependencies: ['database', 'machine-gateway', 'authentication', 'health'] },
);
