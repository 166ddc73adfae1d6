import { Readable } from 'node:stream';
import { machineHistoryEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachment } from '../../http/attachment';
import { endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { ReportsExportService } from './reports-export.service';

export const reportsExportRoutes: FastifyPluginAsyncZod<{ reportsExport: ReportsExportService }> = async (
  app,
  { reportsExport },
) => {
  endpointRoute(app, machineHistoryEndpoints.reportsCsv, {}, async (request, reply) => {
    const file = await reportsExport.reportsCsv(signedIn(request).user, request.params.id, request.query);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachment(file.filename))
      .send(Readable.from(file.chunks));
  });
};
