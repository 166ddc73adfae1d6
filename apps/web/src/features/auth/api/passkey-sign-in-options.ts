import { type PasskeyRequestOptions, secondFactorEndpoints } from '@pivot/contracts';
import { requestEndpoint } from '@/lib/api-client';

/**
 * The options of the browser's passkey prompt for the login's challenge; 'expired' when the
 * challenge ran out (the step asks for the password again), null after a failure's toast.
 */
export async function getPasskeySignInOptions(challenge: string): Promise<PasskeyRequestOptions | 'expired' | null> {
  const expired = (code: string | undefined) => code === 'second_factor_challenge_expired';
  const result = await requestEndpoint(secondFactorEndpoints.passkeySignInOptions, {
    body: { challenge },
    handlesFailure: (failure) => expired(failure.error?.code),
  });
  if (result.ok) return result.data.options;
  return expired(result.failure.error?.code) ? 'expired' : null;
}
