import { MessageResponseSchema, PasswordErrorSchema } from '@pivot/contracts';
import { type ApiFailure, type ApiRequest, apiRequest } from './api-client';

export type PasswordFieldErrors = {
  oldPassword?: string[];
  newPassword?: string[];
  repeatNewPassword?: string[];
};

/** A rejected password answers per field, already in the user's language; null for any other failure. */
export function passwordFieldErrors(failure: ApiFailure): PasswordFieldErrors | null {
  const parsed = PasswordErrorSchema.safeParse(failure.body);
  if (!parsed.success) return null;
  const { oldPassword, newPassword, repeatNewPassword } = parsed.data;
  if (!oldPassword && !newPassword && !repeatNewPassword) return null;
  return { oldPassword, newPassword, repeatNewPassword };
}

export type PasswordCallOutcome = { ok: true } | { ok: false; fieldErrors: PasswordFieldErrors | null };

/**
 * Sends a call that sets a password (change, activation, reset). Its per-field problems go back
 * to the form (docs/product.md#errors) instead of a toast; any other failure shows its toast as usual.
 */
export async function sendPasswordCall(
  request: Omit<ApiRequest<unknown>, 'response' | 'handlesFailure'>,
): Promise<PasswordCallOutcome> {
  const result = await apiRequest({
    ...request,
    response: MessageResponseSchema,
    handlesFailure: (failure) => passwordFieldErrors(failure) !== null,
  });
  return result.ok ? { ok: true } : { ok: false, fieldErrors: passwordFieldErrors(result.failure) };
}
