import { adviceEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, signedIn } from '../../http/request-context';
import type { FarmRecordsService } from './farm-records.service';

export const farmRecordsRoutes: FastifyPluginAsyncZod<{ farmRecords: FarmRecordsService }> = async (
  app,
  { farmRecords },
) => {
  endpointRoute(app, adviceEndpoints.farmRecords, {}, async (request) =>
    farmRecords.list(signedIn(request).user, request.params.id),
  );

  // A second click, or a retry, is not a second rain.
  endpointRoute(app, adviceEndpoints.addFarmRecord, { idempotent: true }, async (request) =>
    farmRecords.create(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  endpointRoute(app, adviceEndpoints.updateFarmRecord, {}, async (request) => {
    const { id, recordId } = request.params;
    return farmRecords.update(signedIn(request).user, id, recordId, request.body, clientInfo(request));
  });

  endpointRoute(app, adviceEndpoints.removeFarmRecord, {}, async (request) => {
    const { id, recordId } = request.params;
    await farmRecords.remove(signedIn(request).user, id, recordId, clientInfo(request));
  });
};
