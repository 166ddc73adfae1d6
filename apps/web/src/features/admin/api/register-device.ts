import { type DeviceSecretResponse, RegisterDeviceBodySchema, devicesEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { requestEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { refreshAfterAdminChange } from './admin-keys';

export const registerDeviceInputSchema = RegisterDeviceBodySchema;
export type RegisterDeviceInput = z.input<typeof registerDeviceInputSchema>;

/**
 * Why an ID cannot be registered, to be told on its field: taken by a controller, the server's
 * own, or an account on the broker the server did not make (taken over only when asked to).
 */
export type RefusedDeviceId = 'device_exists' | 'device_id_reserved' | 'device_account_foreign';
const REFUSED_IDS: readonly string[] = ['device_exists', 'device_id_reserved', 'device_account_foreign'];

/** What registering gave: the controller with its one-time secret, or why the ID was refused (for its field). */
export type RegisterDeviceResult =
  { ok: true; created: DeviceSecretResponse } | { ok: false; refusedId: RefusedDeviceId | null };

/**
 * Registers a machine controller on the broker and answers its secret, the only time it is ever
 * sent. The secret goes back to the caller alone: nothing of it is cached or stored.
 */
export async function registerDevice(input: RegisterDeviceInput): Promise<RegisterDeviceResult> {
  const result = await requestEndpoint(devicesEndpoints.register, { body: registerDeviceInputSchema.parse(input) });
  // A taken ID means the list was out of date: it is refreshed either way.
  await refreshAfterAdminChange();
  if (!result.ok) {
    const code = result.failure.error?.code;
    return { ok: false, refusedId: code && REFUSED_IDS.includes(code) ? (code as RefusedDeviceId) : null };
  }
  return { ok: true, created: result.data };
}

/**
 * useAction, not a TanStack mutation: a mutation keeps its answer in the query client's mutation
 * cache after the dialog has closed, and this answer holds the secret.
 */
export function useRegisterDevice() {
  return useAction(registerDevice);
}
