import { UpdateUserBodySchema, usersEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { requestEndpoint } from '@/lib/api-client';
import { session } from '@/lib/session';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';
import type { SaveUserResult } from './create-user';
import { showsSpecificFailure, userFailureToast } from './failures';

export const updateUserInputSchema = UpdateUserBodySchema;
export type UpdateUserInput = z.input<typeof updateUserInputSchema>;

/** Changes any user's data (administrators); an administrator editing themself keeps the session's copy in step. */
export async function updateUser(id: number, input: UpdateUserInput): Promise<SaveUserResult> {
  const result = await requestEndpoint(usersEndpoints.update, {
    params: { id },
    body: updateUserInputSchema.parse(input),
    handlesFailure: showsSpecificFailure(userFailureToast),
  });
  // A failure may mean the user was gone already: the list is refreshed either way.
  await refreshAfterAdminChange();
  if (!result.ok) return { ok: false, emailTaken: result.failure.error?.code === 'email_taken' };
  if (session.get().user?.id === id) session.updateUser(result.data);
  return { ok: true, user: result.data };
}

export function useUpdateUser() {
  return useAction(updateUser);
}
