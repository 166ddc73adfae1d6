import { type NextIrrigationList, adviceEndpoints } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** Each machine's next irrigation from its crop seasons (docs/advice.md); machines without a season are absent. */
export function getNextIrrigation(): Promise<NextIrrigationList | false> {
  return callEndpoint(adviceEndpoints.nextIrrigation, {});
}

/**
 * The machines table's "Next irrigation", by machine id. The server computes it once a day (or
 * when seasons change), so a copy a few minutes old is as good as a new one.
 */
export function useNextIrrigation() {
  return useQuery({
    queryKey: [...sprinklerKeys.list, 'next-irrigation'],
    queryFn: getNextIrrigation,
    staleTime: 5 * 60_000,
    select: (list) => (list ? new Map(list.map((machine) => [machine.id, machine.nextIrrigation])) : null),
  });
}
