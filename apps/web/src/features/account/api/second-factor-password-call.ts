import type { EndpointAnswer, secondFactorEndpoints } from '@pivot/contracts';
import { requestEndpoint } from '@/lib/api-client';

/** The calls that change the second factor after the account's password. */
type PasswordEndpoint =
  | typeof secondFactorEndpoints.setup
  | typeof secondFactorEndpoints.disable
  | typeof secondFactorEndpoints.recoveryCodes
  | typeof secondFactorEndpoints.passkeyRegistrationOptions;

export type PasswordCallResult<Answer> = { ok: true; data: Answer } | { ok: false; wrongPassword: boolean };

/**
 * Sends one of them with the password typed in its dialog: a wrong password goes back to the
 * dialog's field rather than a toast; any other failure shows its toast as usual.
 */
export async function sendWithPassword<E extends PasswordEndpoint>(
  endpoint: E,
  password: string,
): Promise<PasswordCallResult<EndpointAnswer<E>>> {
  const wrongPassword = (code: string | undefined) => code === 'current_password_incorrect';
  const result = await requestEndpoint(endpoint as PasswordEndpoint, {
    body: { password },
    handlesFailure: (failure) => wrongPassword(failure.error?.code),
  });
  if (!result.ok) return { ok: false, wrongPassword: wrongPassword(result.failure.error?.code) };
  return { ok: true, data: result.data as EndpointAnswer<E> };
}
