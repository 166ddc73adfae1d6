import { type ProgramFromAdvice, adviceEndpoints } from '@pivot/contracts';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The server's program from the advice: each sector's rate for the arm's coming revolution, and why. */
export function getProgramFromAdvice(sprinklerId: number): Promise<ProgramFromAdvice | false> {
  return callEndpoint(adviceEndpoints.programFromAdvice, { params: { id: sprinklerId } });
}

export function useProgramFromAdvice(sprinklerId: number) {
  return useQuery({
    queryKey: [...sprinklerKeys.detail(sprinklerId), 'program-from-advice'] as const,
    queryFn: () => getProgramFromAdvice(sprinklerId),
    // The arm's heading decides when it reaches each sector: a minute old is recent enough.
    staleTime: 60_000,
  });
}
