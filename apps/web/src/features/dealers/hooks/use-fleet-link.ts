import { useQuery } from '@tanstack/react-query';
import { fleetQueryOptions } from '../api/get-fleet';

/**
 * Whether the navigation shows the dealer's fleet: only to a member of a dealer that some farm
 * has granted access (the fleet is not empty). Read by the header's menu, after the first paint.
 */
export function useFleetLink(): boolean {
  const { data: fleet } = useQuery(fleetQueryOptions());
  return Array.isArray(fleet) && fleet.length > 0;
}
