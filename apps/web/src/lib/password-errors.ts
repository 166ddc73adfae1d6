import {
  type EndpointBodyInput,
  PasswordErrorSchema,
  type sessionEndpoints,
  type usersEndpoints,
} from '@pivot/contracts';
import { type ApiFailure, requestEndpoint } from './api-client';

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

/** The calls that set a password: activation or reset from a link, and a change. */
type PasswordEndpoint = typeof sessionEndpoints.setPassword | typeof usersEndpoints.changePassword;

export type PasswordCallOutcome = { ok: true } | { ok: false; fieldErrors: PasswordFieldErrors | null };

/**
 * Sends a call that sets a password (change, activation, reset). Its per-field problems go back
 * to the form (docs/product.md#errors) instead of a toast; any other failure shows its toast as usual.
 */
export async function sendPasswordCall(
  endpoint: PasswordEndpoint,
  body: EndpointBodyInput<PasswordEndpoint>,
): Promise<PasswordCallOutcome> {
  const result = await requestEndpoint(endpoint, {
    body,
    handlesFailure: (failure) => passwordFieldErrors(failure) !== null,
  });
  return result.ok ? { ok: true } : { ok: false, fieldErrors: passwordFieldErrors(result.failure) };
}
