import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import { ReportsCsvQuerySchema } from '../reports-csv';
import { WatermapQuerySchema, WatermapResponseSchema } from '../watermap';

/* What a machine has done over a range of days: its watermap and its reports as a file. */
const tag = 'sprinklers';

export const watermap = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/watermap/',
  params: IdParamsSchema,
  query: WatermapQuerySchema,
  answer: WatermapResponseSchema,
  errors: ['sprinkler_not_found'],
  tag,
  summary: 'The water a machine applied over a range of days, cell by cell',
});

export const reportsCsv = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/reports.csv',
  params: IdParamsSchema,
  query: ReportsCsvQuerySchema,
  produces: 'text/csv',
  errors: ['sprinkler_not_found'],
  tag,
  summary: "The machine's reports over a range of days, as CSV (RFC 4180, times in ISO 8601 UTC)",
});
