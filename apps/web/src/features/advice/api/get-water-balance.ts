import type { WaterBalance } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** Read on the machine page beside its map: its answer is checked once the schemas have come (lib/checked-later.ts). */
const waterBalanceEndpoint = laterEndpoint(
  (contracts) => contracts.adviceEndpoints.waterBalance,
  'GET',
  '/sprinkler/:id/water-balance/',
);

export const waterBalanceKey = (sprinklerId: number) =>
  [...sprinklerKeys.detail(sprinklerId), 'water-balance'] as const;

/**
 * The soil-water balance at the end of the last complete day: zones, sectors, cells. An answer
 * refused once checked is taken back as a failed call's.
 */
export function getWaterBalance(sprinklerId: number): Promise<WaterBalance | false> {
  return callEndpoint(waterBalanceEndpoint, {
    params: { id: sprinklerId },
    refusedLater: () => queryClient.setQueryData(waterBalanceKey(sprinklerId), false),
  });
}

export function waterBalanceQueryOptions(sprinklerId: number) {
  return queryOptions({
    queryKey: waterBalanceKey(sprinklerId),
    queryFn: () => getWaterBalance(sprinklerId),
    // A day's balance changes with the day's water and weather; a few minutes old is recent enough.
    staleTime: 5 * 60_000,
  });
}

export function useWaterBalance(sprinklerId: number) {
  return useQuery(waterBalanceQueryOptions(sprinklerId));
}
