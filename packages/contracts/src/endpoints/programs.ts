import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import { COMMAND_FAILURES } from '../errors';
import { PrescriptionPreviewSchema, PrescriptionRequestSchema } from '../prescriptions';
import { ProgramBodySchema, ProgramParamsSchema } from '../programs';
import { SprinklerDetailSchema } from '../sprinklers';

/* A machine's programs and their sectors: each call answers the machine's detail as it now is. */
const tag = 'programs';

export const create = endpoint({
  method: 'POST',
  path: '/sprinkler/:id/program/',
  params: IdParamsSchema,
  body: ProgramBodySchema,
  answer: SprinklerDetailSchema,
  status: 201,
  errors: ['sprinkler_not_found', 'watch_only', 'too_many_programs', 'program_name_taken', 'too_many_corners'],
  tag,
  summary: 'Adds a program with its sectors to a machine',
});

export const update = endpoint({
  method: 'PATCH',
  path: '/sprinkler/:id/program/:programId/',
  params: ProgramParamsSchema,
  body: ProgramBodySchema,
  answer: SprinklerDetailSchema,
  errors: ['program_not_found', 'watch_only', 'program_name_taken', 'too_many_corners'],
  tag,
  summary: 'Changes a program and its sectors',
});

export const remove = endpoint({
  method: 'DELETE',
  path: '/sprinkler/:id/program/:programId/',
  params: ProgramParamsSchema,
  answer: SprinklerDetailSchema,
  errors: ['program_not_found', 'watch_only'],
  tag,
  summary: 'Deletes a program',
});

export const send = endpoint({
  method: 'POST',
  path: '/sprinkler/:id/program/:programId/send/',
  params: ProgramParamsSchema,
  answer: SprinklerDetailSchema,
  errors: ['program_not_found', 'watch_only', ...COMMAND_FAILURES],
  tag,
  summary: 'Uploads a program to its machine; answers once the machine has received it',
});

export const prescription = endpoint({
  method: 'POST',
  path: '/sprinkler/:id/prescription/',
  params: IdParamsSchema,
  body: PrescriptionRequestSchema,
  answer: PrescriptionPreviewSchema,
  errors: [
    'sprinkler_not_found',
    'watch_only',
    'prescription_unreadable',
    'prescription_unsafe_zip',
    'prescription_projection',
    'prescription_too_many_corners',
    'prescription_no_rates',
    'prescription_rate_out_of_range',
    'prescription_outside_machine',
    'rate_limited',
  ],
  tag,
  summary: "Makes a variable-rate prescription into a program's sectors, to be looked at before it is saved",
  description:
    'The file (a zipped shapefile, zipped ISOXML task data or GeoJSON, base64) is read, its rate column turned into the sectors of a program for this machine, and nothing is stored: the answer is saved as a program with the create call.',
});
