import { type AlertDefaults, AlertDefaultsSchema, alertsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { adminKeys } from './admin-keys';

export const updateAlertDefaultsInputSchema = AlertDefaultsSchema;
export type UpdateAlertDefaultsInput = z.input<typeof updateAlertDefaultsInputSchema>;

/** Sets the defaults; users who follow them (and the account pages showing them) change at once. */
export async function updateAlertDefaults(input: UpdateAlertDefaultsInput): Promise<AlertDefaults | false> {
  const saved = await callEndpoint(alertsEndpoints.saveDefaults, { body: updateAlertDefaultsInputSchema.parse(input) });
  if (saved) queryClient.setQueryData(adminKeys.alertDefaults, saved);
  return saved;
}

export function useUpdateAlertDefaults() {
  return useAction(updateAlertDefaults);
}
