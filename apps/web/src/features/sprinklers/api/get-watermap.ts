import type { WatermapResponse } from '@pivot/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** Read first on the machine page: its answer is checked once the schemas have come (lib/checked-later.ts). */
const watermapEndpoint = laterEndpoint(
  (contracts) => contracts.machineHistoryEndpoints.watermap,
  'GET',
  '/sprinkler/:id/watermap/',
);

/**
 * A range of real days, the start not after the stop (dd.mm.yyyy): as the page's address gives it
 * (`historyWatermapRange`, through the date picker's `parseRange`), what WatermapQuerySchema takes.
 */
export type WatermapRange = { start: string; stop: string };

const watermapKey = (id: number, range: WatermapRange | null) => [...sprinklerKeys.detail(id), 'watermap', range];

/**
 * The water the machine applied over a range (both days included). An answer refused once
 * checked is taken back as a failed call's.
 */
export function getWatermap(id: number, range: WatermapRange): Promise<WatermapResponse | false> {
  return callEndpoint(watermapEndpoint, {
    params: { id },
    query: { start: range.start, stop: range.stop },
    refusedLater: () => queryClient.setQueryData(watermapKey(id, range), false),
  });
}

export function watermapQueryOptions(id: number, range: WatermapRange | null) {
  return queryOptions({
    queryKey: watermapKey(id, range),
    queryFn: () => (range ? getWatermap(id, range) : false),
    enabled: range !== null,
    staleTime: 60_000,
  });
}

/** The watermap of a range; asked only while the irrigation history layer is shown. */
export function useWatermap(id: number, range: WatermapRange | null) {
  return useQuery({ ...watermapQueryOptions(id, range), placeholderData: keepPreviousData });
}
