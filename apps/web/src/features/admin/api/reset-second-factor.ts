import { secondFactorEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';

/**
 * Turns a user's two-step sign-in off when they lost their phone and their recovery codes; they
 * set it up again from their account page. An account without it is refused with its own text.
 */
export async function resetSecondFactor(id: number): Promise<boolean> {
  return (await callEndpoint(secondFactorEndpoints.reset, { params: { id } })) !== false;
}

export function useResetSecondFactor() {
  return useAction(resetSecondFactor);
}
