import { farmsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

/** Removes a member with their grants of the farm's machines, or lets the user leave (their own id). */
export async function removeFarmMember(farmId: number, userId: number): Promise<boolean> {
  const done = (await callEndpoint(farmsEndpoints.removeMember, { params: { farmId, userId } })) !== false;
  // A failure may mean the member was gone already: read again either way.
  await refreshFarms();
  return done;
}

export function useRemoveFarmMember() {
  return useAction(removeFarmMember);
}
