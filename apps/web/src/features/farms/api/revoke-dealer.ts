import { dealersEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

/** Ends a dealer's access to the farm's machines at once (their open streams too). */
export async function revokeDealer(farmId: number, dealerId: number): Promise<boolean> {
  const revoked = (await callEndpoint(dealersEndpoints.revoke, { params: { farmId, dealerId } })) !== false;
  // A failure may mean the grant was gone already: read again either way.
  await refreshFarms();
  return revoked;
}

export function useRevokeDealer() {
  return useAction(revokeDealer);
}
