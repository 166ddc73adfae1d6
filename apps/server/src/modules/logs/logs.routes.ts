import { LogListResponseSchema, LogQuerySchema, LogReadRequestSchema, MessageResponseSchema } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../../http/request-context';
import type { LogsService } from './logs.service';

const tags = ['logs'];

export const logsRoutes: FastifyPluginAsyncZod<{ logs: LogsService }> = async (app, { logs }) => {
  app.get(
    '/logs/',
    { schema: { tags, querystring: LogQuerySchema, response: { 200: LogListResponseSchema } } },
    async (request) => logs.list(signedIn(request).user, request.query),
  );

  app.post(
    '/logs/read/',
    {
      schema: {
        tags,
        description:
          'Marks entries read: with `ids`, only those (the ones the reader was shown; others are passed over); without a body, the whole log up to now.',
        // Fastify hands a call without a body on as null.
        body: LogReadRequestSchema.nullish(),
        response: { 200: MessageResponseSchema },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      if (request.body) await logs.markRead(user, request.body.ids);
      else await logs.markAllRead(user);
      return { message: 'Marked as read' };
    },
  );
};
