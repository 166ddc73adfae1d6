import { type AlertDefaults, AlertDefaultsSchema } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** The incidents and channels of every user who has not chosen their own (administrators). */
export function getAlertDefaults(): Promise<AlertDefaults | false> {
  return apiCall({ method: 'GET', path: '/admin/alert-defaults/', response: AlertDefaultsSchema });
}

export function useAlertDefaults() {
  return useQuery(queryOptions({ queryKey: adminKeys.alertDefaults, queryFn: getAlertDefaults }));
}
