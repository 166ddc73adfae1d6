import { devicesEndpoints } from '@pivot/contracts';
import { requestEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

/** Removes a controller's credentials: it is disconnected and cannot connect again. */
export async function removeDevice(machineId: string): Promise<boolean> {
  const result = await requestEndpoint(devicesEndpoints.remove, { params: { machineId } });
  // A failure may mean the controller was removed meanwhile: the lists are refreshed either way.
  await refreshAfterAdminChange();
  return result.ok;
}

export function useRemoveDevice() {
  return useAction(removeDevice);
}
