import { type AccountAlertSettings, AlertSettingsSchema, alertsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { alertKeys } from './get-account-alert-settings';

export const updateAccountAlertSettingsInputSchema = AlertSettingsSchema;
export type UpdateAccountAlertSettingsInput = z.input<typeof updateAccountAlertSettingsInputSchema>;

/** Saves the user's own alert settings; from then on they no longer follow the defaults. */
export async function updateAccountAlertSettings(
  input: UpdateAccountAlertSettingsInput,
): Promise<AccountAlertSettings | false> {
  const saved = await callEndpoint(alertsEndpoints.saveSettings, {
    body: updateAccountAlertSettingsInputSchema.parse(input),
  });
  if (saved) queryClient.setQueryData(alertKeys.account, saved);
  return saved;
}

export function useUpdateAccountAlertSettings() {
  return useAction(updateAccountAlertSettings);
}
