import { type CropSeason, adviceEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** Every crop season of a machine, of every year, oldest first (docs/advice.md). */
export function getCropSeasons(sprinklerId: number): Promise<CropSeason[] | false> {
  return callEndpoint(adviceEndpoints.cropSeasons, { params: { id: sprinklerId } });
}

export const cropSeasonsKey = (sprinklerId: number) => [...sprinklerKeys.detail(sprinklerId), 'crop-seasons'] as const;

export function cropSeasonsQueryOptions(sprinklerId: number) {
  return queryOptions({
    queryKey: cropSeasonsKey(sprinklerId),
    queryFn: () => getCropSeasons(sprinklerId),
    staleTime: 60_000,
  });
}

export function useCropSeasons(sprinklerId: number) {
  return useQuery(cropSeasonsQueryOptions(sprinklerId));
}
