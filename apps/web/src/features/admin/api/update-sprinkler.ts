import { type SprinklerListItem, UpdateSprinklerBodySchema, sprinklersEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

export const updateSprinklerInputSchema = UpdateSprinklerBodySchema;
export type UpdateSprinklerInput = z.input<typeof updateSprinklerInputSchema>;

/** Renames a machine (administrators). */
export async function updateSprinkler(id: number, input: UpdateSprinklerInput): Promise<SprinklerListItem | false> {
  const updated = await callEndpoint(sprinklersEndpoints.update, {
    params: { id },
    body: updateSprinklerInputSchema.parse(input),
  });
  // A failure may mean the machine was gone already: the lists are refreshed either way.
  await refreshAfterAdminChange();
  return updated;
}

export function useUpdateSprinkler() {
  return useAction(updateSprinkler);
}
