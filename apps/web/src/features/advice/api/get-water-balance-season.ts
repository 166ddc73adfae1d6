import { type WaterBalanceSeason, adviceEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { waterBalanceKey } from './get-water-balance';

/** Every zone's and sector's season day by day through the last complete day, and on to its next irrigation. */
export function getWaterBalanceSeason(sprinklerId: number): Promise<WaterBalanceSeason | false> {
  return callEndpoint(adviceEndpoints.waterBalanceSeason, { params: { id: sprinklerId } });
}

export function waterBalanceSeasonQueryOptions(sprinklerId: number) {
  return queryOptions({
    // Under the balance's key: whatever refreshes the balance refreshes its season too.
    queryKey: [...waterBalanceKey(sprinklerId), 'season'] as const,
    queryFn: () => getWaterBalanceSeason(sprinklerId),
    staleTime: 5 * 60_000,
  });
}

export function useWaterBalanceSeason(sprinklerId: number) {
  return useQuery(waterBalanceSeasonQueryOptions(sprinklerId));
}
