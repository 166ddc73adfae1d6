import { QuarantineListQuerySchema, QuarantineListResponseSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { QuarantineService } from './quarantine.service';

/** The administrators' list of machine messages set aside, newest first. */
export const quarantineRoutes: FastifyPluginAsyncZod<{ quarantine: QuarantineService }> = async (
  app,
  { quarantine },
) => {
  app.get(
    '/quarantine/',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['quarantine'],
        querystring: QuarantineListQuerySchema,
        response: { 200: QuarantineListResponseSchema },
      },
    },
    async (request) => quarantine.list(request.query),
  );
};
