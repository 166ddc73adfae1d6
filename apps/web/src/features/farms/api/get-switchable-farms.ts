import { type SwitchableFarm, farmsEndpoints } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { farmsKeys } from './farms-keys';

/** The farms the machines list and the activity log can be switched to, by name. */
export function getSwitchableFarms(): Promise<SwitchableFarm[] | false> {
  return callEndpoint(farmsEndpoints.switchable, {});
}

export function useSwitchableFarms() {
  return useQuery({ queryKey: farmsKeys.switchable, queryFn: getSwitchableFarms });
}
