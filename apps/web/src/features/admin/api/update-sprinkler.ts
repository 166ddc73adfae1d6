import { type SprinklerListItem, SprinklerListItemSchema, UpdateSprinklerBodySchema } from '@pivot/contracts';
import type { z } from 'zod';
import { apiCall } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

export const updateSprinklerInputSchema = UpdateSprinklerBodySchema;
export type UpdateSprinklerInput = z.input<typeof updateSprinklerInputSchema>;

/** Renames a machine (administrators). */
export async function updateSprinkler(id: number, input: UpdateSprinklerInput): Promise<SprinklerListItem | false> {
  const updated = await apiCall({
    method: 'PATCH',
    path: `/sprinkler/${id}/`,
    body: updateSprinklerInputSchema.parse(input),
    response: SprinklerListItemSchema,
  });
  // A failure may mean the machine was gone already: the lists are refreshed either way.
  await refreshAfterAdminChange();
  return updated;
}

export function useUpdateSprinkler() {
  return useAction(updateSprinkler);
}
