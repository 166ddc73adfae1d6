import { type FarmRecord, adviceEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The farm's own records of a machine, the newest day first (docs/advice.md, "The farm's own records"). */
export function getFarmRecords(sprinklerId: number): Promise<FarmRecord[] | false> {
  return callEndpoint(adviceEndpoints.farmRecords, { params: { id: sprinklerId } });
}

export const farmRecordsKey = (sprinklerId: number) => [...sprinklerKeys.detail(sprinklerId), 'records'] as const;

export function farmRecordsQueryOptions(sprinklerId: number) {
  return queryOptions({
    queryKey: farmRecordsKey(sprinklerId),
    queryFn: () => getFarmRecords(sprinklerId),
    staleTime: 60_000,
  });
}

export function useFarmRecords(sprinklerId: number) {
  return useQuery(farmRecordsQueryOptions(sprinklerId));
}
