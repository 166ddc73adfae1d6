import type { ErrorCode, UpdateSelfBody, UpdateSelfBodySchema, User } from '@pivot/contracts';
import type { z } from 'zod';
import { requestEndpoint } from '@/lib/api-client';
import { loadSessionSchemas } from '@/lib/load-session-schemas';
import { session } from '@/lib/session';
import { useAction } from '@/lib/use-action';

export type UpdateAccountInput = z.input<typeof UpdateSelfBodySchema>;

/** The answers about the current password that the account form shows under its field rather than as a toast. */
const PASSWORD_CODES = ['current_password_required', 'current_password_incorrect'] as const satisfies ErrorCode[];
export type CurrentPasswordProblem = (typeof PASSWORD_CODES)[number];

function currentPasswordProblem(code: ErrorCode | undefined): CurrentPasswordProblem | null {
  return PASSWORD_CODES.find((known) => known === code) ?? null;
}

export type SaveAccountResult =
  { ok: true; user: User } | { ok: false; currentPasswordProblem: CurrentPasswordProblem | null };

/**
 * Saves the signed-in user's own data and keeps the stored user in step. A new email needs the
 * current password: what the server says about it goes back to the form.
 */
export async function saveAccount(input: UpdateAccountInput): Promise<SaveAccountResult> {
  // The language switch in every page's header leads here: the schemas come when it is used.
  const schemas = await loadSessionSchemas();
  const body: UpdateSelfBody = schemas.UpdateSelfBodySchema.parse(input);
  const result = await requestEndpoint(schemas.updateSelfEndpoint, {
    body,
    handlesFailure: (failure) => currentPasswordProblem(failure.error?.code) !== null,
  });
  if (!result.ok) return { ok: false, currentPasswordProblem: currentPasswordProblem(result.failure.error?.code) };
  session.updateUser(result.data);
  return { ok: true, user: result.data };
}

/** Saves fields that need no password (the language); false when it failed, as a toast already said. */
export async function updateAccount(
  input: Omit<UpdateAccountInput, 'email' | 'current_password'>,
): Promise<User | false> {
  const result = await saveAccount(input);
  return result.ok ? result.user : false;
}

export function useSaveAccount() {
  return useAction(saveAccount);
}
