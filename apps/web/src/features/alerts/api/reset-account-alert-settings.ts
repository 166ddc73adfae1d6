import { type AccountAlertSettings, alertsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { alertKeys } from './get-account-alert-settings';

/** Forgets the user's own alert settings: they follow the administrators' defaults again. */
export async function resetAccountAlertSettings(): Promise<AccountAlertSettings | false> {
  const settings = await callEndpoint(alertsEndpoints.resetSettings, {});
  if (settings) queryClient.setQueryData(alertKeys.account, settings);
  return settings;
}

export function useResetAccountAlertSettings() {
  return useAction(resetAccountAlertSettings);
}
