import { type DeviceSecretResponse, DeviceSecretResponseSchema, RegisterDeviceBodySchema } from '@pivot/contracts';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

export const registerDeviceInputSchema = RegisterDeviceBodySchema;
export type RegisterDeviceInput = z.input<typeof registerDeviceInputSchema>;

/** What registering gave: the controller with its one-time secret, or whether the ID was taken (for its field). */
export type RegisterDeviceResult = { ok: true; created: DeviceSecretResponse } | { ok: false; exists: boolean };

/**
 * Registers a machine controller on the broker and answers its secret, the only time it is ever
 * sent. The secret goes back to the caller alone: nothing of it is cached or stored.
 */
export async function registerDevice(input: RegisterDeviceInput): Promise<RegisterDeviceResult> {
  const result = await apiRequest({
    method: 'POST',
    path: '/device/',
    body: registerDeviceInputSchema.parse(input),
    response: DeviceSecretResponseSchema,
  });
  // A taken ID means the list was out of date: it is refreshed either way.
  await refreshAfterAdminChange();
  if (!result.ok) return { ok: false, exists: result.failure.error?.code === 'device_exists' };
  return { ok: true, created: result.data };
}

/**
 * useAction, not a TanStack mutation: a mutation keeps its answer in the query client's mutation
 * cache after the dialog has closed, and this answer holds the secret.
 */
export function useRegisterDevice() {
  return useAction(registerDevice);
}
