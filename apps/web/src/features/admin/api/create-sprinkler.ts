import { CreateSprinklerBodySchema, type SprinklerListItem, sprinklersEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';
import { addSprinklerFailureToast, showsSpecificFailure } from './failures';

export const createSprinklerInputSchema = CreateSprinklerBodySchema;
export type CreateSprinklerInput = z.input<typeof createSprinklerInputSchema>;

/**
 * Adds a machine by its broker ID. The server asks the machine over the broker first, so the
 * answer takes up to the command timeout (about 5 s); its three failures have their own texts.
 */
export async function createSprinkler(input: CreateSprinklerInput): Promise<SprinklerListItem | false> {
  const created = await callEndpoint(sprinklersEndpoints.create, {
    body: createSprinklerInputSchema.parse(input),
    handlesFailure: showsSpecificFailure(addSprinklerFailureToast),
  });
  if (created) await refreshAfterAdminChange();
  return created;
}

export function useCreateSprinkler() {
  return useAction(createSprinkler);
}
