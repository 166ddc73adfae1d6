import type { SwitchableFarm } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { queryClient } from '@/lib/query-client';
import { farmsKeys } from './farms-keys';

/**
 * Read first on the machines list and the activity log (their farm switch and farm column): its
 * answer is checked once the schemas have come (lib/checked-later.ts), so that zod is no part of
 * the list's first paint.
 */
const switchableEndpoint = laterEndpoint(
  (contracts) => contracts.farmsEndpoints.switchable,
  'GET',
  '/farm/switchable/',
);

/** The farms the machines list and the activity log can be switched to, by name. */
export function getSwitchableFarms(): Promise<SwitchableFarm[] | false> {
  return callEndpoint(switchableEndpoint, {
    refusedLater: () => queryClient.setQueryData(farmsKeys.switchable, false),
  });
}

export function useSwitchableFarms() {
  return useQuery({ queryKey: farmsKeys.switchable, queryFn: getSwitchableFarms });
}
