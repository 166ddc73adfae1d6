import { type DealerGrant, dealersEndpoints } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { farmsKeys } from './farms-keys';

/** The farm's grants to dealers, those expired too (its owners and managers, the administrator). */
export function getDealerGrants(farmId: number): Promise<DealerGrant[] | false> {
  return callEndpoint(dealersEndpoints.farmGrants, { params: { farmId } });
}

export function useDealerGrants(farmId: number) {
  return useQuery({ queryKey: farmsKeys.dealerGrants(farmId), queryFn: () => getDealerGrants(farmId) });
}
