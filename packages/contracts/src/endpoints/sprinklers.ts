import { endpoint } from '../endpoint';
import { SprinklerPageQuerySchema, SprinklerPageSchema } from '../sprinklers';

/*
 * The machines table: a page of the machines the signed-in user may see, and their live events.
 * (GET /sprinkler/, every machine at once with an ETag the database's JSON is tagged by, is still
 * registered by hand.)
 */

const tag = 'sprinklers';

export const page = endpoint({
  method: 'GET',
  path: '/sprinkler/page/',
  query: SprinklerPageQuerySchema,
  answer: SprinklerPageSchema,
  errors: [],
  tag,
  summary: 'One page of the machines the signed-in user may see, sorted, searched and filtered by state',
  description:
    "The search looks in the name, the broker ID and the state as the machines table words it in the request's language (Accept-Language, else the account's).",
});

export const events = endpoint({
  method: 'GET',
  path: '/sprinkler/events',
  produces: 'text/event-stream',
  errors: ['too_many_streams', 'too_many_streams_on_server'],
  tag,
  summary:
    "Live events of every machine the signed-in user may see (telemetry, presence, program, each with its machine's id), and 'machines' when the list itself changed",
});
