import { NextIrrigationListSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { compiledSerializerCompiler } from '../../http/compiled-serializer';
import { sendWithETag } from '../../http/etag';
import { signedIn } from '../../http/request-context';
import type { NextIrrigationService } from './next-irrigation.service';

export const nextIrrigationRoutes: FastifyPluginAsyncZod<{ nextIrrigation: NextIrrigationService }> = async (
  app,
  { nextIrrigation },
) => {
  // The machines table's "Next irrigation", apart from the list so that the list costs nothing more.
  const json = compiledSerializerCompiler({ schema: NextIrrigationListSchema });
  app.get(
    '/sprinkler/next-irrigation/',
    { schema: { tags: ['advice'], response: { 200: NextIrrigationListSchema } } },
    async (request, reply) => sendWithETag(request, reply, json(await nextIrrigation.list(signedIn(request).user))),
  );
};
