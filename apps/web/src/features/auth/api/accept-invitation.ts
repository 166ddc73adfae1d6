import {
  type AcceptInvitationBody,
  AcceptInvitationBodySchema,
  type ErrorCode,
  farmsEndpoints,
} from '@pivot/contracts';
import { type ApiFailure, requestEndpoint } from '@/lib/api-client';
import { type PasswordFieldErrors, passwordFieldErrors } from '@/lib/password-errors';
import { useAction } from '@/lib/use-action';

export type AcceptInvitationOutcome =
  | { ok: true }
  | {
      ok: false;
      /**
       * `invalid_link`: the link stopped working meanwhile (used, revoked, resent, expired);
       * `invalid_credentials`: not the account's password; `password_rejected`: the new password's
       * problems, per field, in `fieldErrors`; `other`: its toast has been shown.
       */
      reason: 'invalid_link' | 'invalid_credentials' | 'password_rejected' | 'other';
      fieldErrors?: PasswordFieldErrors;
    };

/** The refusals the invitation's form shows in its own place; any other is the app's toast. */
const OWN_PLACE: ReadonlySet<ErrorCode> = new Set(['invalid_link', 'invalid_credentials']);

const handledHere = (failure: ApiFailure) =>
  (failure.error !== null && OWN_PLACE.has(failure.error.code)) || passwordFieldErrors(failure) !== null;

/**
 * Accepts an invitation: with the password of the invited address's account, or as a new person
 * with their names and a password (docs/roles.md, "Invitations"). No session comes of it: the
 * person signs in afterwards.
 */
export async function acceptInvitation(id: number, body: AcceptInvitationBody): Promise<AcceptInvitationOutcome> {
  const result = await requestEndpoint(farmsEndpoints.acceptInvitation, {
    params: { id },
    body: AcceptInvitationBodySchema.parse(body),
    handlesFailure: handledHere,
  });
  if (result.ok) return { ok: true };
  const { failure } = result;
  const fieldErrors = passwordFieldErrors(failure);
  if (fieldErrors) return { ok: false, reason: 'password_rejected', fieldErrors };
  const code = failure.error?.code;
  if (code === 'invalid_link' || code === 'invalid_credentials') return { ok: false, reason: code };
  return { ok: false, reason: 'other' };
}

export function useAcceptInvitation() {
  return useAction(acceptInvitation);
}
