import { type FarmInvitation, FarmInvitationBodySchema, farmsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const inviteToFarmInputSchema = FarmInvitationBodySchema;
export type InviteToFarmInput = z.input<typeof inviteToFarmInputSchema>;

/**
 * Invites a person by email, in a role: the server mails them a link (owners any role, managers
 * not as owner). An address invited already, or a member, is a warning the user corrects.
 */
export async function inviteToFarm(farmId: number, input: InviteToFarmInput): Promise<FarmInvitation | false> {
  const invited = await callEndpoint(farmsEndpoints.invite, {
    params: { farmId },
    body: inviteToFarmInputSchema.parse(input),
  });
  if (invited) await refreshFarms();
  return invited;
}

export function useInviteToFarm() {
  return useAction(inviteToFarm);
}
