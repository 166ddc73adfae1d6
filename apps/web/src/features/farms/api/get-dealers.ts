import { type Dealer, dealersEndpoints } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { farmsKeys } from './farms-keys';

/** The dealers, by name: whom a farm may grant access to its machines. */
export function getDealers(): Promise<Dealer[] | false> {
  return callEndpoint(dealersEndpoints.list, {});
}

export function useDealers() {
  return useQuery({ queryKey: farmsKeys.dealers, queryFn: getDealers });
}
