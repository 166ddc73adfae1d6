import { type FarmMember, FarmMemberBodySchema, farmsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const addFarmMemberInputSchema = FarmMemberBodySchema;
export type AddFarmMemberInput = z.input<typeof addFarmMemberInputSchema>;

/** Makes an existing account a member of a farm in a role (the server's administrators). */
export async function addFarmMember(farmId: number, input: AddFarmMemberInput): Promise<FarmMember | false> {
  const added = await callEndpoint(farmsEndpoints.addMember, {
    params: { farmId },
    body: addFarmMemberInputSchema.parse(input),
  });
  if (added) await refreshFarms();
  return added;
}

export function useAddFarmMember() {
  return useAction(addFarmMember);
}
