import { type SprinklerListItem, sprinklersEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** Every machine at once: an administrator's own list of machines holds them all. */
export function getAllSprinklers(): Promise<SprinklerListItem[] | false> {
  return callEndpoint(sprinklersEndpoints.list, {});
}

export function allSprinklersQueryOptions() {
  return queryOptions({ queryKey: adminKeys.allSprinklers, queryFn: getAllSprinklers });
}

/** The names of the added machines by their ID on the broker; empty until they are known. */
export function useSprinklerNamesByInternalId(): ReadonlyMap<string, string> {
  const { data } = useQuery(allSprinklersQueryOptions());
  return new Map((data || []).map((sprinkler) => [sprinkler.internalId, sprinkler.name]));
}
