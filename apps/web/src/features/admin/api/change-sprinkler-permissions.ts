import { PermissionsBodySchema, type SprinklerWithUsers, adminEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';
import { permissionsFailureToast, showsSpecificFailure } from './failures';

export const changeSprinklerPermissionsInputSchema = PermissionsBodySchema;
export type ChangeSprinklerPermissionsInput = z.input<typeof changeSprinklerPermissionsInputSchema>;

/** Grants a user access to a machine, or revokes it; granting twice is harmless. */
export async function changeSprinklerPermissions(
  sprinklerId: number,
  input: ChangeSprinklerPermissionsInput,
): Promise<SprinklerWithUsers | false> {
  const changed = await callEndpoint(adminEndpoints.changePermissions, {
    params: { id: sprinklerId },
    body: changeSprinklerPermissionsInputSchema.parse(input),
    handlesFailure: showsSpecificFailure(permissionsFailureToast),
  });
  // A failure means the lists were out of date (the user or the access was gone): they are refreshed too.
  await refreshAfterAdminChange();
  return changed;
}

export function useChangeSprinklerPermissions() {
  return useAction(changeSprinklerPermissions);
}
