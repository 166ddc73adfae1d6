import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { reportsExportRoutes } from './reports-export.routes';
import { ReportsExportService } from './reports-export.service';

/** A user's data, out: a machine's reports over a range of days as a CSV file. */
export const reportsExportModule = fp(
  async (app: FastifyInstance) => {
    const reportsExport = new ReportsExportService({ sprinklers: app.sprinklers, storedReports: app.storedReports });
    await app.register(reportsExportRoutes, { prefix: '/api', reportsExport });
  },
  { name: 'reports-export', dependencies: ['database', 'authentication', 'sprinklers', 'telemetry'] },
);
