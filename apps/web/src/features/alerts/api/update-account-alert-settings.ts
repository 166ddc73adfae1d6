import { type AccountAlertSettings, AccountAlertSettingsSchema, AlertSettingsSchema } from '@pivot/contracts';
import type { z } from 'zod';
import { apiCall } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { alertKeys } from './get-account-alert-settings';

export const updateAccountAlertSettingsInputSchema = AlertSettingsSchema;
export type UpdateAccountAlertSettingsInput = z.input<typeof updateAccountAlertSettingsInputSchema>;

/** Saves the user's own alert settings; from then on they no longer follow the defaults. */
export async function updateAccountAlertSettings(
  input: UpdateAccountAlertSettingsInput,
): Promise<AccountAlertSettings | false> {
  const saved = await apiCall({
    method: 'PUT',
    path: '/account/alerts/',
    body: updateAccountAlertSettingsInputSchema.parse(input),
    response: AccountAlertSettingsSchema,
  });
  if (saved) queryClient.setQueryData(alertKeys.account, saved);
  return saved;
}

export function useUpdateAccountAlertSettings() {
  return useAction(updateAccountAlertSettings);
}
