import type { NextIrrigationList } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** Read first on the machines list: its answer is checked once the schemas have come (lib/checked-later.ts). */
const nextIrrigationEndpoint = laterEndpoint(
  (contracts) => contracts.adviceEndpoints.nextIrrigation,
  'GET',
  '/sprinkler/next-irrigation/',
);

const nextIrrigationKey = [...sprinklerKeys.list, 'next-irrigation'];

/**
 * Each machine's next irrigation from its crop seasons (docs/advice.md); machines without a season
 * are absent. An answer refused once checked is taken back as a failed call's.
 */
export function getNextIrrigation(): Promise<NextIrrigationList | false> {
  return callEndpoint(nextIrrigationEndpoint, {
    refusedLater: () => queryClient.setQueryData(nextIrrigationKey, false),
  });
}

/**
 * The machines table's "Next irrigation", by machine id. The server computes it once a day (or
 * when seasons change), so a copy a few minutes old is as good as a new one.
 */
export function useNextIrrigation() {
  return useQuery({
    queryKey: nextIrrigationKey,
    queryFn: getNextIrrigation,
    staleTime: 5 * 60_000,
    select: (list) => (list ? new Map(list.map((machine) => [machine.id, machine.nextIrrigation])) : null),
  });
}
