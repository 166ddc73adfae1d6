import { type DeviceSecretResponse, devicesEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

/**
 * Gives a controller a new secret: the old one stops working at once and the controller's live
 * connection is dropped. Answers the new secret to the caller alone, never to a cache.
 */
export async function replaceDeviceSecret(machineId: string): Promise<DeviceSecretResponse | false> {
  const replaced = await callEndpoint(devicesEndpoints.replaceSecret, { params: { machineId } });
  // A failure may mean the controller was removed meanwhile: the lists are refreshed either way.
  await refreshAfterAdminChange();
  return replaced;
}

/** useAction, not a TanStack mutation, which would keep the secret in the mutation cache. */
export function useReplaceDeviceSecret() {
  return useAction(replaceDeviceSecret);
}
