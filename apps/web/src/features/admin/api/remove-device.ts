import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

/** The answer of a removal: 204, no content. */
const NoContentSchema = z.undefined();

/** Removes a controller's credentials: it is disconnected and cannot connect again. */
export async function removeDevice(machineId: string): Promise<boolean> {
  const result = await apiRequest({
    method: 'DELETE',
    path: `/device/${encodeURIComponent(machineId)}/`,
    response: NoContentSchema,
  });
  // A failure may mean the controller was removed meanwhile: the lists are refreshed either way.
  await refreshAfterAdminChange();
  return result.ok;
}

export function useRemoveDevice() {
  return useAction(removeDevice);
}
