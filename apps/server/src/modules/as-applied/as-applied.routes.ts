import { Readable } from 'node:stream';
import { type AsAppliedFormat, machineHistoryEndpoints } from '@pivot/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachment } from '../../http/attachment';
import { type EndpointRequest, endpointRoute } from '../../http/endpoint-route';
import { signedIn } from '../../http/request-context';
import type { AsAppliedFile, AsAppliedService } from './as-applied.service';

export const asAppliedRoutes: FastifyPluginAsyncZod<{ asApplied: AsAppliedService }> = async (app, { asApplied }) => {
  const formats = [
    [machineHistoryEndpoints.asAppliedGeoJson, 'geojson', 'application/geo+json'],
    [machineHistoryEndpoints.asAppliedShapefile, 'shapefile', 'application/zip'],
    [machineHistoryEndpoints.asAppliedIsoxml, 'isoxml', 'application/zip'],
  ] as const satisfies readonly (readonly [unknown, AsAppliedFormat, string])[];
  const send = (reply: FastifyReply, contentType: string, file: AsAppliedFile) =>
    reply.type(contentType).header('content-disposition', attachment(file.filename)).send(Readable.from(file.chunks));
  for (const [endpoint, format, contentType] of formats) {
    endpointRoute(app, endpoint, {}, async (request: EndpointRequest<typeof endpoint>, reply) =>
      send(
        reply,
        contentType,
        await asApplied.ofMachine(signedIn(request).user, request.params.id, request.query, format),
      ),
    );
  }
  const fleetFormats = [
    [machineHistoryEndpoints.fleetAsAppliedGeoJson, 'geojson', 'application/geo+json'],
    [machineHistoryEndpoints.fleetAsAppliedShapefile, 'shapefile', 'application/zip'],
    [machineHistoryEndpoints.fleetAsAppliedIsoxml, 'isoxml', 'application/zip'],
  ] as const satisfies readonly (readonly [unknown, AsAppliedFormat, string])[];
  for (const [endpoint, format, contentType] of fleetFormats) {
    endpointRoute(app, endpoint, {}, async (request: EndpointRequest<typeof endpoint>, reply) =>
      send(reply, contentType, await asApplied.ofFleet(signedIn(request).user, request.query, format)),
    );
  }
};
