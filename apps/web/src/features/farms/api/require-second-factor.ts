import { type Farm, FarmSecondFactorBodySchema, farmsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const requireSecondFactorInputSchema = FarmSecondFactorBodySchema;
export type RequireSecondFactorInput = z.input<typeof requireSecondFactorInputSchema>;

/**
 * Requires two-step sign-in of every member of the farm, or no longer (its owners, the server's
 * administrators): a member without it then reaches only their account's set-up (docs/two-factor.md).
 */
export async function requireSecondFactor(farmId: number, input: RequireSecondFactorInput): Promise<Farm | false> {
  const changed = await callEndpoint(farmsEndpoints.requireSecondFactor, {
    params: { farmId },
    body: requireSecondFactorInputSchema.parse(input),
  });
  // A refusal may mean the screen was out of date (the viewer's role changed): read either way.
  await refreshFarms();
  return changed;
}

export function useRequireSecondFactor() {
  return useAction(requireSecondFactor);
}
