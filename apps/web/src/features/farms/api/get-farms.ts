import { type Farm, farmsEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { farmsKeys } from './farms-keys';

/** The farms the user belongs to, with their role in each; every farm for the server's administrators. */
export function getFarms(): Promise<Farm[] | false> {
  return callEndpoint(farmsEndpoints.list, {});
}

export function farmsQueryOptions() {
  return queryOptions({ queryKey: farmsKeys.list, queryFn: getFarms });
}

export function useFarms() {
  return useQuery(farmsQueryOptions());
}
