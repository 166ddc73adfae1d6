import { farmsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { farmsKeys, refreshFarms } from './farms-keys';

/**
 * The user leaves a farm (removes themselves; a farm's last owner is refused). The screen then
 * moves to the farms' list: the farm's page is only marked out of date, not read again now, when
 * the server would refuse it.
 */
export async function leaveFarm(farmId: number, userId: number): Promise<boolean> {
  const left = (await callEndpoint(farmsEndpoints.removeMember, { params: { farmId, userId } })) !== false;
  if (!left) {
    await refreshFarms();
    return false;
  }
  await queryClient.invalidateQueries({ queryKey: farmsKeys.detail(farmId), refetchType: 'none' });
  await queryClient.invalidateQueries({ queryKey: farmsKeys.list });
  return true;
}

export function useLeaveFarm() {
  return useAction(leaveFarm);
}
