import { endpoint } from '../endpoint';
import { LogListResponseSchema, LogQuerySchema, LogReadRequestSchema } from '../logs';
import { MessageResponseSchema } from '../users';

const tag = 'logs';

export const list = endpoint({
  method: 'GET',
  path: '/logs/',
  query: LogQuerySchema,
  answer: LogListResponseSchema,
  errors: ['farm_not_found'],
  tag,
  summary: "One page of the signed-in user's activity log, newest first (of one farm, when asked)",
});

export const markRead = endpoint({
  method: 'POST',
  path: '/logs/read/',
  // Fastify hands a call without a body on as null.
  body: LogReadRequestSchema.nullish(),
  answer: MessageResponseSchema,
  errors: [],
  tag,
  summary: 'Marks log entries read',
  description:
    'Marks entries read: with `ids`, only those (the ones the reader was shown; others are passed over); without a body, the whole log up to now.',
});
