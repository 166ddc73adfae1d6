import { IdParamsSchema, ProgramBodySchema, ProgramParamsSchema, SprinklerDetailSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GEOMETRY_BODY_LIMIT } from '../../http/body-limits';
import { compiledSerializerCompiler } from '../../http/compiled-serializer';
import { clientInfo, signedIn } from '../../http/request-context';
import type { ProgramsService } from './programs.service';

const tags = ['programs'];
const detail = { 200: SprinklerDetailSchema };

export const programsRoutes: FastifyPluginAsyncZod<{ programs: ProgramsService }> = async (app, { programs }) => {
  app.post(
    '/sprinkler/:id/program/',
    {
      config: { idempotent: true },
      // A program's sectors: up to 500 polygons, drawn or imported from a GIS file.
      bodyLimit: GEOMETRY_BODY_LIMIT,
      schema: { tags, params: IdParamsSchema, body: ProgramBodySchema, response: { 201: SprinklerDetailSchema } },
      // The detail's polygons were checked on their way in: see compiled-serializer.ts.
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request, reply) => {
      const updated = await programs.create(
        signedIn(request).user,
        request.params.id,
        request.body,
        clientInfo(request),
      );
      return reply.status(201).send(updated);
    },
  );

  app.patch(
    '/sprinkler/:id/program/:programId/',
    {
      bodyLimit: GEOMETRY_BODY_LIMIT,
      schema: { tags, params: ProgramParamsSchema, body: ProgramBodySchema, response: detail },
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => {
      const { id, programId } = request.params;
      return programs.update(signedIn(request).user, id, programId, request.body, clientInfo(request));
    },
  );

  app.delete(
    '/sprinkler/:id/program/:programId/',
    { schema: { tags, params: ProgramParamsSchema, response: detail } },
    async (request) => {
      const { id, programId } = request.params;
      return programs.delete(signedIn(request).user, id, programId, clientInfo(request));
    },
  );

  app.post(
    '/sprinkler/:id/program/:programId/send/',
    { config: { idempotent: true }, schema: { tags, params: ProgramParamsSchema, response: detail } },
    async (request) => {
      const { id, programId } = request.params;
      return programs.send(signedIn(request).user, id, programId, clientInfo(request));
    },
  );
};
