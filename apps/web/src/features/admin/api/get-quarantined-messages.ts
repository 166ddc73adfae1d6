import { QuarantineListQuerySchema, type QuarantineListResponse, quarantineEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';

export type QuarantineQueryInput = z.input<typeof QuarantineListQuerySchema>;

/** One page of the machine messages the server set aside instead of storing, newest first. */
export function getQuarantinedMessages(input: QuarantineQueryInput): Promise<QuarantineListResponse | false> {
  return callEndpoint(quarantineEndpoints.list, { query: QuarantineListQuerySchema.parse(input) });
}
