import { type DealerMember, dealersEndpoints } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { farmsKeys } from './farms-keys';

/** A dealer's members, in the order they were added (the server's administrators). */
export function getDealerMembers(dealerId: number): Promise<DealerMember[] | false> {
  return callEndpoint(dealersEndpoints.members, { params: { dealerId } });
}

export function useDealerMembers(dealerId: number) {
  return useQuery({ queryKey: farmsKeys.dealerMembers(dealerId), queryFn: () => getDealerMembers(dealerId) });
}
