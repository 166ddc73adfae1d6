import { z } from 'zod';
import { DottedDateSchema, parseDottedDate } from './common';

/** Water applied over a date range: each triple is a cell centre's latitude, longitude and mm. */
export const WatermapResponseSchema = z.strictObject({
  data: z.array(z.tuple([z.number(), z.number(), z.number()])),
  /** Grid cell size in metres. */
  step: z.number().positive(),
});
export type WatermapResponse = z.infer<typeof WatermapResponseSchema>;

export const WatermapQuerySchema = z.strictObject({ start: DottedDateSchema, stop: DottedDateSchema }).refine(
  ({ start, stop }) => {
    // A date that is not a real day is already reported by DottedDateSchema: compare real days only.
    const [from, to] = [parseDottedDate(start), parseDottedDate(stop)];
    return from === null || to === null || from <= to;
  },
  { message: 'The range must not end before it starts', path: ['stop'] },
);
export type WatermapQuery = z.infer<typeof WatermapQuerySchema>;
