import { type SprinklerDetail, sprinklersEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { keepWhileOffline } from '@/lib/connection';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** One machine with everything its screen shows; false when the call failed (its toast is shown). */
export function getSprinkler(id: number): Promise<SprinklerDetail | false> {
  return callEndpoint(sprinklersEndpoints.detail, { params: { id } });
}

export function sprinklerQueryOptions(id: number) {
  return queryOptions({ queryKey: sprinklerKeys.detail(id), queryFn: () => keepWhileOffline(getSprinkler(id)) });
}

export function useSprinkler(id: number) {
  return useQuery(sprinklerQueryOptions(id));
}
