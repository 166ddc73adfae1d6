import { type FarmInvitation, farmsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

/** Mails an invitation again with a new link; the link mailed before stops working. */
export async function resendInvitation(farmId: number, invitationId: number): Promise<FarmInvitation | false> {
  const resent = await callEndpoint(farmsEndpoints.resendInvitation, { params: { farmId, invitationId } });
  // A failure may mean the invitation was accepted or revoked meanwhile: read again either way.
  await refreshFarms();
  return resent;
}

export function useResendInvitation() {
  return useAction(resendInvitation);
}
