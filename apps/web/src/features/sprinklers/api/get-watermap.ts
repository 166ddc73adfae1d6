import type { WatermapResponse } from '@pivot/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { takeEarly } from '@/lib/early-answers';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { type WatermapRange, callWatermap, earlyWatermap } from './first-calls';

export type { WatermapRange } from './first-calls';

/**
 * The water the machine applied over a range (both days included); the answer of the same call
 * asked early, before the page's code came, if there is one.
 */
export function getWatermap(id: number, range: WatermapRange): Promise<WatermapResponse | false> {
  return takeEarly<WatermapResponse | false>(earlyWatermap(id, range)) ?? callWatermap(id, range);
}

export function watermapQueryOptions(id: number, range: WatermapRange | null) {
  return queryOptions({
    // The key first-calls.ts takes a refused answer back from.
    queryKey: [...sprinklerKeys.detail(id), 'watermap', range],
    queryFn: () => (range ? getWatermap(id, range) : false),
    enabled: range !== null,
    staleTime: 60_000,
  });
}

/** The watermap of a range; asked only while the irrigation history layer is shown. */
export function useWatermap(id: number, range: WatermapRange | null) {
  return useQuery({ ...watermapQueryOptions(id, range), placeholderData: keepPreviousData });
}
