import { type SecondFactorStatus, secondFactorEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';

export const secondFactorKeys = {
  status: ['account', 'second-factor'] as const,
};

/** Whether the signed-in user's two-step sign-in is on, since when, and how many recovery codes are left. */
export function getSecondFactorStatus(): Promise<SecondFactorStatus | false> {
  return callEndpoint(secondFactorEndpoints.status, {});
}

export function useSecondFactorStatus() {
  return useQuery(queryOptions({ queryKey: secondFactorKeys.status, queryFn: getSecondFactorStatus }));
}
