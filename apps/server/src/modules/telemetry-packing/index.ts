import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { StoredReports } from './stored-reports';

declare module 'fastify' {
  interface FastifyInstance {
    /** A machine's stored reports over a range, whatever form each day is kept in. */
    storedReports: StoredReports;
  }
}

export type { ReportsOfDay, StoredReports } from './stored-reports';

/**
 * Telemetry packing: the compact form of machines' past days of reports, and the one reader of
 * a range of reports that every other module uses (the export, the water accounting).
 */
export const telemetryPackingModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone'>) => {
    const storedReports = new StoredReports({
      db: app.database.db,
      telemetry: app.telemetry,
      timeZone: config.timeZone,
    });
    app.decorate('storedReports', storedReports);
  },
  { name: 'telemetry-packing', dependencies: ['database', 'telemetry'] },
);
