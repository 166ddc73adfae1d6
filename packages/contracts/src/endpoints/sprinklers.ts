import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import { COMMAND_FAILURES } from '../errors';
import {
  CreateSprinklerBodySchema,
  MotionBodySchema,
  SprinklerDetailSchema,
  SprinklerListItemSchema,
  SprinklerListResponseSchema,
  SprinklerPageQuerySchema,
  SprinklerPageSchema,
  UpdateSprinklerBodySchema,
} from '../sprinklers';

/*
 * The machines themselves: the list and the table's page of those the signed-in user may see,
 * one machine's screen and its motion, the administrators' adding and changing of machines, and
 * the live events of them all and of one.
 */

const tag = 'sprinklers';

export const list = endpoint({
  method: 'GET',
  path: '/sprinkler/',
  answer: SprinklerListResponseSchema,
  errors: [],
  tag,
  summary: 'Every machine the signed-in user may see, at once',
  description:
    'Sent with an ETag: a request whose If-None-Match holds it is answered 304 without a body while the list is unchanged.',
});

export const page = endpoint({
  method: 'GET',
  path: '/sprinkler/page/',
  query: SprinklerPageQuerySchema,
  answer: SprinklerPageSchema,
  errors: ['farm_not_found'],
  tag,
  summary: 'One page of the machines the signed-in user may see, sorted, searched and filtered by state and farm',
  description:
    "The search looks in the name, the broker ID and the state as the machines table words it in the request's language (Accept-Language, else the account's).",
});

export const detail = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/',
  params: IdParamsSchema,
  answer: SprinklerDetailSchema,
  errors: ['sprinkler_not_found'],
  tag,
  summary: 'One machine with everything its screen shows: its state, programs, area map and latest report',
});

export const create = endpoint({
  method: 'POST',
  path: '/sprinkler/',
  body: CreateSprinklerBodySchema,
  answer: SprinklerListItemSchema,
  status: 201,
  // The machine is asked to identify itself over the broker before it is added.
  errors: [
    'sprinkler_exists',
    'farm_not_found',
    'sprinkler_not_on_broker',
    'sprinkler_processing_error',
    'machine_clock_wrong',
    'broker_unreachable',
  ],
  tag,
  summary:
    'Adds a machine by its broker ID, once it has answered where it stands and how long its arm is (administrators)',
});

export const update = endpoint({
  method: 'PATCH',
  path: '/sprinkler/:id/',
  params: IdParamsSchema,
  body: UpdateSprinklerBodySchema,
  answer: SprinklerListItemSchema,
  errors: ['sprinkler_not_found', 'forbidden', 'invalid_geometry', 'too_many_corners'],
  tag,
  summary:
    "Renames a machine, or changes its area map or its low-pressure alert (administrators, the people who run the machine's farm)",
});

export const move = endpoint({
  method: 'POST',
  path: '/sprinkler/:id/motion',
  params: IdParamsSchema,
  body: MotionBodySchema,
  answer: SprinklerDetailSchema,
  errors: ['sprinkler_not_found', 'watch_only', ...COMMAND_FAILURES],
  tag,
  summary: 'Sends a motion command to a machine; answers once the machine has confirmed it',
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

export const machineEvents = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/events',
  params: IdParamsSchema,
  produces: 'text/event-stream',
  errors: ['sprinkler_not_found', 'too_many_streams', 'too_many_streams_on_server'],
  tag,
  summary: "Live events of one machine: its telemetry, its presence (online, offline) and its program's changes",
});
