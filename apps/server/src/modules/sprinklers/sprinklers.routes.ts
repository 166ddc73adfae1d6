import {
  CreateSprinklerBodySchema,
  IdParamsSchema,
  MotionBodySchema,
  SprinklerDetailSchema,
  SprinklerListItemSchema,
  SprinklerListResponseSchema,
  UpdateSprinklerBodySchema,
  sprinklersEndpoints,
} from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GEOMETRY_BODY_LIMIT } from '../../http/body-limits';
import { compiledSerializerCompiler } from '../../http/compiled-serializer';
import { endpointRoute } from '../../http/endpoint-route';
import { sendWithETag } from '../../http/etag';
import { clientInfo, requestLanguage, signedIn } from '../../http/request-context';
import type { SprinklersService } from './sprinklers.service';

const tags = ['sprinklers'];

export const sprinklersRoutes: FastifyPluginAsyncZod<{ sprinklers: SprinklersService }> = async (
  app,
  { sprinklers },
) => {
  // The table asks again whenever its event stream reconnects or says the machines changed: an
  // unchanged list is answered 304. Its JSON, which the tag is taken from, is written by the
  // database (a dealer's list is 10,000 machines).
  app.get('/sprinkler/', { schema: { tags, response: { 200: SprinklerListResponseSchema } } }, async (request, reply) =>
    sendWithETag(request, reply, await sprinklers.listJson(signedIn(request).user)),
  );

  // The machines table's page: its search finds the states as the page words them.
  endpointRoute(app, sprinklersEndpoints.page, {}, async (request) =>
    sprinklers.page(signedIn(request).user, request.query, requestLanguage(request)),
  );

  app.get(
    '/sprinkler/:id/',
    {
      schema: { tags, params: IdParamsSchema, response: { 200: SprinklerDetailSchema } },
      // Asked for on every visit of a machine's page: see compiled-serializer.ts.
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => sprinklers.detail(signedIn(request).user, request.params.id),
  );

  app.post(
    '/sprinkler/',
    {
      config: { access: 'admin', idempotent: true },
      schema: { tags, body: CreateSprinklerBodySchema, response: { 201: SprinklerListItemSchema } },
    },
    async (request, reply) => {
      const created = await sprinklers.create(signedIn(request).user, request.body, clientInfo(request));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/sprinkler/:id/',
    {
      config: { access: 'admin' },
      // The area map: a field and its crops, often drawn in a GIS tool with many corners.
      bodyLimit: GEOMETRY_BODY_LIMIT,
      schema: {
        tags,
        params: IdParamsSchema,
        body: UpdateSprinklerBodySchema,
        response: { 200: SprinklerListItemSchema },
      },
      // The area map's polygons were checked on their way in: see compiled-serializer.ts.
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => sprinklers.update(signedIn(request).user, request.params.id, request.body, clientInfo(request)),
  );

  app.post(
    '/sprinkler/:id/motion',
    {
      config: { idempotent: true },
      schema: { tags, params: IdParamsSchema, body: MotionBodySchema, response: { 200: SprinklerDetailSchema } },
    },
    async (request) =>
      sprinklers.move(signedIn(request).user, request.params.id, request.body.motion, clientInfo(request)),
  );
};
