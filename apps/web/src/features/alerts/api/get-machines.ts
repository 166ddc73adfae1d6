import { type SprinklerListItem, sprinklersEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The machines the user may see: those whose alerts they can mute. The machines list shares the cache entry. */
export function getMachines(): Promise<SprinklerListItem[] | false> {
  return callEndpoint(sprinklersEndpoints.list, {});
}

export function useMachines() {
  return useQuery(queryOptions({ queryKey: sprinklerKeys.list, queryFn: getMachines }));
}
