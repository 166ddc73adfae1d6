import { type AlertDefaults, alertsEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** The incidents and channels of every user who has not chosen their own (administrators). */
export function getAlertDefaults(): Promise<AlertDefaults | false> {
  return callEndpoint(alertsEndpoints.defaults, {});
}

export function useAlertDefaults() {
  return useQuery(queryOptions({ queryKey: adminKeys.alertDefaults, queryFn: getAlertDefaults }));
}
