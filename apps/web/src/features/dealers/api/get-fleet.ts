import { type DealerFleetFarm, dealersEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';

/** Query keys of the dealers' screens: the fleet (also the header's menu reads it). */
export const dealersKeys = {
  fleet: ['dealers', 'fleet'] as const,
};

/**
 * The farms granted to the user's dealers, side by side, each with its machines in all, online,
 * moving and in alarm; empty for a user who is no dealer's member.
 */
export function getFleet(): Promise<DealerFleetFarm[] | false> {
  return callEndpoint(dealersEndpoints.fleet, {});
}

export function fleetQueryOptions() {
  return queryOptions({ queryKey: dealersKeys.fleet, queryFn: getFleet });
}

export function useFleet() {
  return useQuery(fleetQueryOptions());
}
