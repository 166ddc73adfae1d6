import { endpoint } from '../endpoint';
import { QuarantineListQuerySchema, QuarantineListResponseSchema } from '../quarantine';

export const list = endpoint({
  method: 'GET',
  path: '/quarantine/',
  query: QuarantineListQuerySchema,
  answer: QuarantineListResponseSchema,
  errors: [],
  tag: 'quarantine',
  summary: 'One page of the machine messages set aside instead of stored, newest first (administrators)',
});
