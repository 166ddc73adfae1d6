import type { SprinklerDetail } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { keepWhileOffline } from '@/lib/connection';
import { takeEarly } from '@/lib/early-answers';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { callSprinklerDetail, earlyDetail } from './first-calls';

/**
 * One machine with everything its screen shows; false when the call failed (its toast is shown).
 * The answer of the same call asked early, before the page's code came, if there is one.
 */
export function getSprinkler(id: number): Promise<SprinklerDetail | false> {
  return takeEarly<SprinklerDetail | false>(earlyDetail(id)) ?? callSprinklerDetail(id);
}

export function sprinklerQueryOptions(id: number) {
  return queryOptions({ queryKey: sprinklerKeys.detail(id), queryFn: () => keepWhileOffline(getSprinkler(id)) });
}

export function useSprinkler(id: number) {
  return useQuery(sprinklerQueryOptions(id));
}
