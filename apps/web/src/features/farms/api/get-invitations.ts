import { type FarmInvitation, farmsEndpoints } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { farmsKeys } from './farms-keys';

/** The farm's invitations not yet accepted or revoked (its owners and managers, the administrator). */
export function getInvitations(farmId: number): Promise<FarmInvitation[] | false> {
  return callEndpoint(farmsEndpoints.invitations, { params: { farmId } });
}

export function useInvitations(farmId: number) {
  return useQuery({ queryKey: farmsKeys.invitations(farmId), queryFn: () => getInvitations(farmId) });
}
