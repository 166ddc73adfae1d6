import { LogListResponseSchema, LogQuerySchema, MessageResponseSchema } from '@pivot/contracts';
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

  app.post('/logs/read/', { schema: { tags, response: { 200: MessageResponseSchema } } }, async (request) => {
    await logs.markAllRead(signedIn(request).user);
    return { message: 'Marked as read' };
  });
};
