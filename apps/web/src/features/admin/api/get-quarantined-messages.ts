import { QuarantineListQuerySchema, type QuarantineListResponse, QuarantineListResponseSchema } from '@pivot/contracts';
import type { z } from 'zod';
import { apiCall } from '@/lib/api-client';

export type QuarantineQueryInput = z.input<typeof QuarantineListQuerySchema>;

/** One page of the machine messages the server set aside instead of storing, newest first. */
export function getQuarantinedMessages(input: QuarantineQueryInput): Promise<QuarantineListResponse | false> {
  return apiCall({
    method: 'GET',
    path: '/quarantine/',
    query: QuarantineListQuerySchema.parse(input),
    response: QuarantineListResponseSchema,
  });
}
