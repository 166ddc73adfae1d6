import { SprinklerAdminListQuerySchema, type SprinklerWithUsers, adminEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';

export const sprinklersQueryInputSchema = SprinklerAdminListQuerySchema;
export type SprinklersQueryInput = z.input<typeof sprinklersQueryInputSchema>;

export type SprinklersPage = { count: number; data: SprinklerWithUsers[] };

/**
 * One page of all machines with the users granted each. `exclude` (a user id) leaves out the
 * machines that user already has access to.
 */
export function getSprinklers(input: SprinklersQueryInput): Promise<SprinklersPage | false> {
  return callEndpoint(adminEndpoints.sprinklers, { query: sprinklersQueryInputSchema.parse(input) });
}
