import { adviceEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GEOMETRY_BODY_LIMIT } from '../../http/body-limits';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, signedIn } from '../../http/request-context';
import type { CropSeasonsService } from './crop-seasons.service';

export const cropSeasonsRoutes: FastifyPluginAsyncZod<{ cropSeasons: CropSeasonsService }> = async (
  app,
  { cropSeasons },
) => {
  endpointRoute(app, adviceEndpoints.cropSeasons, {}, async (request) =>
    cropSeasons.list(signedIn(request).user, request.params.id),
  );

  endpointRoute(app, adviceEndpoints.replaceCropSeasons, {}, async (request) =>
    cropSeasons.replace(signedIn(request).user, request.params.id, request.body, request.query, clientInfo(request)),
  );

  // The map's polygons were checked on their way in: see compiled-serializer.ts.
  endpointRoute(app, adviceEndpoints.areaMap, { compiledAnswer: true }, async (request) =>
    cropSeasons.exportAreaMap(signedIn(request).user, request.params.id),
  );

  endpointRoute(
    app,
    adviceEndpoints.importAreaMap,
    { bodyLimit: GEOMETRY_BODY_LIMIT, compiledAnswer: true },
    async (request) =>
      cropSeasons.importAreaMap(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );
};
