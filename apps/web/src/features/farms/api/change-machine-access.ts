import { type AccessLevel, adminEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

/** What a member may do with one of the farm's machines: nothing, watch it, or control it. */
export type MachineAccess = AccessLevel | 'none';

/**
 * Gives a farm's member a level on one of its machines (granting again changes the level), or
 * takes their grant away (the farm's owners and managers, the server's administrators).
 */
export async function changeMachineAccess(
  sprinklerId: number,
  userId: number,
  access: MachineAccess,
): Promise<boolean> {
  const changed = await callEndpoint(adminEndpoints.changePermissions, {
    params: { id: sprinklerId },
    body: access === 'none' ? { user: userId, action: 'revoke' } : { user: userId, action: 'grant', level: access },
  });
  // A failure may mean the grant or the member was gone already: read again either way.
  await refreshFarms();
  return changed !== false;
}

export function useChangeMachineAccess() {
  return useAction(changeMachineAccess);
}
