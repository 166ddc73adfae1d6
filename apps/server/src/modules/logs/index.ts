import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { logsRoutes } from './logs.routes';
import { LogsService } from './logs.service';

declare module 'fastify' {
  interface FastifyInstance {
    logs: LogsService;
  }
}

export type { EventTeller, LogReader, LogsService } from './logs.service';
export type { NewLogEntry } from './logs.repository';
export type { LogEntryRow } from './logs.table';

/** The activity log (docs/product.md#entities log entries): `logs.record(…)` for every module, `/logs/` for its readers. */
export const logsModule = fp(
  async (app: FastifyInstance) => {
    const logs = new LogsService({ db: app.database.db, access: app.access });
    app.decorate('logs', logs);
    await app.register(logsRoutes, { prefix: '/api', logs });
  },
  { name: 'logs', dependencies: ['database', 'authentication', 'access'] },
);
