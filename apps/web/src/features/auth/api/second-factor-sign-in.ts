import {
  type ErrorCode,
  type SecondFactorSignInBody,
  SecondFactorSignInBodySchema,
  type SignedInAnswer,
  secondFactorEndpoints,
} from '@pivot/contracts';
import type { z } from 'zod';
import { requestEndpoint } from '@/lib/api-client';
import { session } from '@/lib/session';
import { useAction } from '@/lib/use-action';

export type SecondFactorSignInInput = z.input<typeof SecondFactorSignInBodySchema>;

/** The refusals the second step shows in its own place rather than as a toast. */
const STEP_CODES = [
  'second_factor_incorrect',
  'passkey_rejected',
  'second_factor_challenge_expired',
] as const satisfies ErrorCode[];
export type SecondFactorRefusal = (typeof STEP_CODES)[number];

function stepRefusal(code: ErrorCode | undefined): SecondFactorRefusal | null {
  return STEP_CODES.find((known) => known === code) ?? null;
}

export type SecondFactorSignInResult =
  { ok: true; signedIn: SignedInAnswer } | { ok: false; refusal: SecondFactorRefusal | null };

/**
 * The second step of signing in: the login's challenge with an authenticator's code, a recovery
 * code or a passkey's answer. Answered like a login, it stores the user and the access token as a
 * login does. A wrong code or passkey, or a challenge that ran out, goes back to the step; any
 * other failure is a toast.
 */
export async function signInWithSecondFactor(input: SecondFactorSignInInput): Promise<SecondFactorSignInResult> {
  const body: SecondFactorSignInBody = SecondFactorSignInBodySchema.parse(input);
  const result = await requestEndpoint(secondFactorEndpoints.signIn, {
    body,
    handlesFailure: (failure) => stepRefusal(failure.error?.code) !== null,
  });
  if (!result.ok) return { ok: false, refusal: stepRefusal(result.failure.error?.code) };
  session.signIn(result.data.user, result.data.access);
  return { ok: true, signedIn: result.data };
}

export function useSecondFactorSignIn() {
  return useAction(signInWithSecondFactor);
}
