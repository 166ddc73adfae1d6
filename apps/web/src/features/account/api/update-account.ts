import { type UpdateSelfBody, UpdateSelfBodySchema, type User, UserSchema } from '@pivot/contracts';
import type { z } from 'zod';
import { apiCall } from '@/lib/api-client';
import { session } from '@/lib/session';
import { useAction } from '@/lib/use-action';

export const updateAccountInputSchema = UpdateSelfBodySchema;
export type UpdateAccountInput = z.input<typeof updateAccountInputSchema>;

/** Saves the signed-in user's own data (or just the language) and keeps the stored user in step. */
export async function updateAccount(input: UpdateAccountInput): Promise<User | false> {
  const body: UpdateSelfBody = updateAccountInputSchema.parse(input);
  const user = await apiCall({ method: 'PATCH', path: '/user/', body, response: UserSchema });
  if (user) session.updateUser(user);
  return user;
}

export function useUpdateAccount() {
  return useAction(updateAccount);
}
