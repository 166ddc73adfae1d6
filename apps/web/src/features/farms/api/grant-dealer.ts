import { type DealerGrant, DealerGrantBodySchema, dealersEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const grantDealerInputSchema = DealerGrantBodySchema;
export type GrantDealerInput = z.input<typeof grantDealerInputSchema>;

/**
 * Grants a dealer watch or control over all the farm's machines or the ones named, until a time
 * or revoked; granting a dealer again replaces its grant (the farm's owners and managers).
 */
export async function grantDealer(
  farmId: number,
  dealerId: number,
  input: GrantDealerInput,
): Promise<DealerGrant | false> {
  const granted = await callEndpoint(dealersEndpoints.grant, {
    params: { farmId, dealerId },
    body: grantDealerInputSchema.parse(input),
  });
  // A refusal may mean the screen was out of date (a machine or the dealer gone): read either way.
  await refreshFarms();
  return granted;
}

export function useGrantDealer() {
  return useAction(grantDealer);
}
