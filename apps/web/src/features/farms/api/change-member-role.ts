import { type FarmMember, FarmRoleBodySchema, farmsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const changeMemberRoleInputSchema = FarmRoleBodySchema;
export type ChangeMemberRoleInput = z.input<typeof changeMemberRoleInputSchema>;

/** Gives a member another role (owners any; managers between member and manager); a farm keeps an owner. */
export async function changeMemberRole(
  farmId: number,
  userId: number,
  input: ChangeMemberRoleInput,
): Promise<FarmMember | false> {
  const changed = await callEndpoint(farmsEndpoints.changeRole, {
    params: { farmId, userId },
    body: changeMemberRoleInputSchema.parse(input),
  });
  // A refusal (the last owner) leaves the select showing the role asked for: read again either way.
  await refreshFarms();
  return changed;
}

export function useChangeMemberRole() {
  return useAction(changeMemberRole);
}
