import { type Farm, farmsEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** Every farm of the server (an administrator's list holds them all), to place a machine in one. */
export function getFarms(): Promise<Farm[] | false> {
  return callEndpoint(farmsEndpoints.list, {});
}

export function useFarms() {
  return useQuery(queryOptions({ queryKey: adminKeys.farms, queryFn: getFarms }));
}
