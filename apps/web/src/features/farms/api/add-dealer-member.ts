import { DealerMemberBodySchema, dealersEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const addDealerMemberInputSchema = DealerMemberBodySchema;
export type AddDealerMemberInput = z.input<typeof addDealerMemberInputSchema>;

/** Makes an existing account, by its email, a member of a dealer (the server's administrators). */
export async function addDealerMember(dealerId: number, input: AddDealerMemberInput): Promise<boolean> {
  const added = await callEndpoint(dealersEndpoints.addMember, {
    params: { dealerId },
    body: addDealerMemberInputSchema.parse(input),
  });
  if (added === false) return false;
  await refreshFarms();
  return true;
}

export function useAddDealerMember() {
  return useAction(addDealerMember);
}
