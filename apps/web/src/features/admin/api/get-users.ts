import { type UserListResponse, UserListQuerySchema, adminEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';

export const usersQueryInputSchema = UserListQuerySchema;
export type UsersQueryInput = z.input<typeof usersQueryInputSchema>;

/**
 * One page of users with the machines each may use. `exclude` (a machine id) leaves out the
 * users who already have access to that machine.
 */
export function getUsers(input: UsersQueryInput): Promise<UserListResponse | false> {
  return callEndpoint(adminEndpoints.users, { query: usersQueryInputSchema.parse(input) });
}
