import { type WaterBalance, adviceEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The soil-water balance at the end of the last complete day: zones, sectors, cells. */
export function getWaterBalance(sprinklerId: number): Promise<WaterBalance | false> {
  return callEndpoint(adviceEndpoints.waterBalance, { params: { id: sprinklerId } });
}

export const waterBalanceKey = (sprinklerId: number) =>
  [...sprinklerKeys.detail(sprinklerId), 'water-balance'] as const;

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
