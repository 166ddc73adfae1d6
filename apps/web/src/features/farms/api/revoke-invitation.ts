import { farmsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

/** Revokes an invitation: its link stops working. */
export async function revokeInvitation(farmId: number, invitationId: number): Promise<boolean> {
  const revoked = (await callEndpoint(farmsEndpoints.revokeInvitation, { params: { farmId, invitationId } })) !== false;
  // A failure may mean the invitation was accepted or revoked meanwhile: read again either way.
  await refreshFarms();
  return revoked;
}

export function useRevokeInvitation() {
  return useAction(revokeInvitation);
}
