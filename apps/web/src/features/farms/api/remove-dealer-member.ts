import { dealersEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

/** Removes a dealer's member: their access through the dealer ends at once, their open streams too. */
export async function removeDealerMember(dealerId: number, userId: number): Promise<boolean> {
  const removed = (await callEndpoint(dealersEndpoints.removeMember, { params: { dealerId, userId } })) !== false;
  // A failure may mean the member was gone already: read again either way.
  await refreshFarms();
  return removed;
}

export function useRemoveDealerMember() {
  return useAction(removeDealerMember);
}
