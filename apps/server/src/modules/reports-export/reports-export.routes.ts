import { Readable } from 'node:stream';
import { machineHistoryEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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

/**
 * A Content-Disposition naming the file: its name in UTF-8 (RFC 6266, RFC 5987) and a plain
 * ASCII one for clients that read only that.
 */
function attachment(filename: string): string {
  const ascii = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\/]/g, '_');
  const encoded = encodeURIComponent(filename.replace(/[/\\]/g, '_')).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
