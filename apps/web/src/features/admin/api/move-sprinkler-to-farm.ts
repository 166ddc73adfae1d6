import { type Farm, MachineFarmBodySchema, farmsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

export const moveSprinklerToFarmInputSchema = MachineFarmBodySchema;
export type MoveSprinklerToFarmInput = z.input<typeof moveSprinklerToFarmInputSchema>;

/**
 * Places a machine in a farm, or moves it to another; the grants of people who are not members
 * of that farm end (docs/roles.md). Answers the farm it is in now.
 */
export async function moveSprinklerToFarm(id: number, input: MoveSprinklerToFarmInput): Promise<Farm | false> {
  const farm = await callEndpoint(farmsEndpoints.moveMachine, {
    params: { id },
    body: moveSprinklerToFarmInputSchema.parse(input),
  });
  // The machines' users may have changed, and the farms' counts: every list on screen is read again.
  await refreshAfterAdminChange();
  return farm;
}

export function useMoveSprinklerToFarm() {
  return useAction(moveSprinklerToFarm);
}
