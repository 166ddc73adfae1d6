import type { SprinklerDetail } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { keepWhileOffline } from '@/lib/connection';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { decodeMachine } from './decode-machines';

/** Read first on the machine page: its answer is checked once the schemas have come (lib/checked-later.ts). */
const detailEndpoint = laterEndpoint(
  (contracts) => contracts.sprinklersEndpoints.detail,
  'GET',
  '/sprinkler/:id/',
  decodeMachine,
);

/**
 * One machine with everything its screen shows; false when the call failed (its toast is shown).
 * An answer refused once checked is taken back as a failed call's.
 */
export function getSprinkler(id: number): Promise<SprinklerDetail | false> {
  return callEndpoint(detailEndpoint, {
    params: { id },
    refusedLater: () => queryClient.setQueryData(sprinklerKeys.detail(id), false),
  });
}

export function sprinklerQueryOptions(id: number) {
  return queryOptions({ queryKey: sprinklerKeys.detail(id), queryFn: () => keepWhileOffline(getSprinkler(id)) });
}

export function useSprinkler(id: number) {
  return useQuery(sprinklerQueryOptions(id));
}
