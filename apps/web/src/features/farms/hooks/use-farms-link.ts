import { useQuery } from '@tanstack/react-query';
import { farmsQueryOptions } from '../api/get-farms';

/**
 * Whether the navigation shows the farms' screen: to the server's administrators always (they
 * create farms), to others once they belong to a farm (the farms' list tells, and is read again
 * after each change to a farm, so leaving the last one takes the link away).
 */
export function useFarmsLink(admin: boolean): boolean {
  const { data: farms } = useQuery({ ...farmsQueryOptions(), enabled: !admin });
  return admin || (Array.isArray(farms) && farms.length > 0);
}
