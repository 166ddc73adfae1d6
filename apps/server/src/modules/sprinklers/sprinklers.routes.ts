import { sprinklersEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GEOMETRY_BODY_LIMIT } from '../../http/body-limits';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, requestLanguage, signedIn } from '../../http/request-context';
import type { SprinklersService } from './sprinklers.service';

export const sprinklersRoutes: FastifyPluginAsyncZod<{ sprinklers: SprinklersService }> = async (
  app,
  { sprinklers },
) => {
  // The table asks again whenever its event stream reconnects or says the machines changed: an
  // unchanged list is answered 304. Its JSON, which the tag is taken from, is written by the
  // database (a dealer's list is 10,000 machines).
  endpointRoute(app, sprinklersEndpoints.list, { etag: true, jsonText: true }, async (request) =>
    sprinklers.listJson(signedIn(request).user),
  );

  // The machines table's page: its search finds the states as the page words them.
  endpointRoute(app, sprinklersEndpoints.page, {}, async (request) =>
    sprinklers.page(signedIn(request).user, request.query, requestLanguage(request)),
  );

  // Asked for on every visit of a machine's page: see compiled-serializer.ts.
  endpointRoute(app, sprinklersEndpoints.detail, { compiledAnswer: true }, async (request) =>
    sprinklers.detail(signedIn(request).user, request.params.id),
  );

  endpointRoute(app, sprinklersEndpoints.create, { access: 'admin', idempotent: true }, async (request) =>
    sprinklers.create(signedIn(request).user, request.body, clientInfo(request)),
  );

  // The area map: a field and its crops, often drawn in a GIS tool with many corners. Its
  // polygons were checked on their way in: see compiled-serializer.ts.
  endpointRoute(
    app,
    sprinklersEndpoints.update,
    { bodyLimit: GEOMETRY_BODY_LIMIT, compiledAnswer: true },
    async (request) => sprinklers.update(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  endpointRoute(app, sprinklersEndpoints.move, { idempotent: true }, async (request) =>
    sprinklers.move(signedIn(request).user, request.params.id, request.body.motion, clientInfo(request)),
  );
};
