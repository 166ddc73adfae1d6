import { type Dealer, DealerBodySchema, dealersEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const createDealerInputSchema = DealerBodySchema;
export type CreateDealerInput = z.input<typeof createDealerInputSchema>;

/** Creates a dealer (the server's administrators); a name taken is a warning the user corrects. */
export async function createDealer(input: CreateDealerInput): Promise<Dealer | false> {
  const created = await callEndpoint(dealersEndpoints.create, { body: createDealerInputSchema.parse(input) });
  // The dealers' list (farms' grant forms pick from it) is read again.
  if (created) await refreshFarms();
  return created;
}

export function useCreateDealer() {
  return useAction(createDealer);
}
