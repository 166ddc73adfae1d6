import { type Farm, FarmBodySchema, farmsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshFarms } from './farms-keys';

export const renameFarmInputSchema = FarmBodySchema;
export type RenameFarmInput = z.input<typeof renameFarmInputSchema>;

/** Renames a farm (its owners, the server's administrators). */
export async function renameFarm(farmId: number, input: RenameFarmInput): Promise<Farm | false> {
  const renamed = await callEndpoint(farmsEndpoints.rename, {
    params: { farmId },
    body: renameFarmInputSchema.parse(input),
  });
  // A failure may mean the screen was out of date (the farm gone, the role changed): read either way.
  await refreshFarms();
  return renamed;
}

export function useRenameFarm() {
  return useAction(renameFarm);
}
