import type { Params } from 'react-router';
import { sprinklerQueryOptions } from '@/features/sprinklers/api/get-sprinkler';
import { watermapQueryOptions } from '@/features/sprinklers/api/get-watermap';
import { historyWatermapRange } from '@/features/sprinklers/hooks/use-history-range';
import { queryClient } from '@/lib/query-client';

/**
 * What the machine page asks for first, known from its address: the machine's detail and, while
 * the irrigation history is shown, its watermap. The page's own queries then find them (same keys).
 */
export function prefetchSprinklerPage(params: Params, search: URLSearchParams): void {
  const id = Number(params.id);
  void queryClient.prefetchQuery(sprinklerQueryOptions(id));
  const range = historyWatermapRange(search);
  if (range) void queryClient.prefetchQuery(watermapQueryOptions(id, range));
}
