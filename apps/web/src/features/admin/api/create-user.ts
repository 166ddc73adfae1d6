import { CreateUserBodySchema, type User, usersEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { requestEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';
import { showsSpecificFailure, userFailureToast } from './failures';

export const createUserInputSchema = CreateUserBodySchema;
export type CreateUserInput = z.input<typeof createUserInputSchema>;

/** What saving a user gave: the user, or whether the email was the problem (for its field). */
export type SaveUserResult = { ok: true; user: User } | { ok: false; emailTaken: boolean };

/** Adds a user; the server mails the activation link. A taken email is a warning (docs/product.md#errors). */
export async function createUser(input: CreateUserInput): Promise<SaveUserResult> {
  const result = await requestEndpoint(usersEndpoints.create, {
    body: createUserInputSchema.parse(input),
    handlesFailure: showsSpecificFailure(userFailureToast),
  });
  if (!result.ok) return { ok: false, emailTaken: result.failure.error?.code === 'email_taken' };
  await refreshAfterAdminChange();
  return { ok: true, user: result.data };
}

export function useCreateUser() {
  return useAction(createUser);
}
