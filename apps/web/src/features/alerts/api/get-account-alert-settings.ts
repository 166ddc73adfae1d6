import { type AccountAlertSettings, alertsEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';

export const alertKeys = {
  all: ['alerts'] as const,
  account: ['alerts', 'account'] as const,
};

/** The signed-in user's alert settings, and whether they are still the administrators' defaults. */
export function getAccountAlertSettings(): Promise<AccountAlertSettings | false> {
  return callEndpoint(alertsEndpoints.settings, {});
}

export function accountAlertSettingsQueryOptions() {
  return queryOptions({ queryKey: alertKeys.account, queryFn: getAccountAlertSettings });
}

export function useAccountAlertSettings() {
  return useQuery(accountAlertSettingsQueryOptions());
}
