import { type Farm, FarmBodySchema, farmsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const createFarmInputSchema = FarmBodySchema;
export type CreateFarmInput = z.input<typeof createFarmInputSchema>;

/** Creates a farm (the server's administrators); a name taken is a warning the user corrects. */
export async function createFarm(input: CreateFarmInput): Promise<Farm | false> {
  const created = await callEndpoint(farmsEndpoints.create, { body: createFarmInputSchema.parse(input) });
  if (created) await refreshFarms();
  return created;
}

export function useCreateFarm() {
  return useAction(createFarm);
}
