import { type FarmDetail, farmsEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestEndpoint } from '@/lib/api-client';
import { farmsKeys } from './farms-keys';

/**
 * A farm as its owners and managers see it; or that the user may not see it (a member: 403), or
 * that there is no such farm for them (404, also a farm they do not belong to). The screen says
 * either in its place, so neither is shown as a toast; false for any other failure (shown).
 */
export type FarmAnswer = { kind: 'farm'; detail: FarmDetail } | { kind: 'forbidden' } | { kind: 'notFound' };

export async function getFarm(farmId: number): Promise<FarmAnswer | false> {
  const result = await requestEndpoint(farmsEndpoints.detail, {
    params: { farmId },
    handlesFailure: ({ status }) => status === 403 || status === 404,
  });
  if (result.ok) return { kind: 'farm', detail: result.data };
  if (result.failure.status === 403) return { kind: 'forbidden' };
  if (result.failure.status === 404) return { kind: 'notFound' };
  return false;
}

export function farmQueryOptions(farmId: number) {
  return queryOptions({ queryKey: farmsKeys.detail(farmId), queryFn: () => getFarm(farmId) });
}

export function useFarm(farmId: number) {
  return useQuery(farmQueryOptions(farmId));
}
