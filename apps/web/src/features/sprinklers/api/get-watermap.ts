import { type WatermapResponse, WatermapQuerySchema, machineHistoryEndpoints } from '@pivot/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The water the machine applied from `start` to `stop` (dd.mm.yyyy, both days included). */
export function getWatermap(id: number, start: string, stop: string): Promise<WatermapResponse | false> {
  return callEndpoint(machineHistoryEndpoints.watermap, {
    params: { id },
    query: WatermapQuerySchema.parse({ start, stop }),
  });
}

export type WatermapRange = { start: string; stop: string };

export function watermapQueryOptions(id: number, range: WatermapRange | null) {
  return queryOptions({
    queryKey: [...sprinklerKeys.detail(id), 'watermap', range],
    queryFn: () => (range ? getWatermap(id, range.start, range.stop) : false),
    enabled: range !== null,
    staleTime: 60_000,
  });
}

/** The watermap of a range; asked only while the irrigation history layer is shown. */
export function useWatermap(id: number, range: WatermapRange | null) {
  return useQuery({ ...watermapQueryOptions(id, range), placeholderData: keepPreviousData });
}
