import { type ApplicationDepth, ApplicationDepthBodySchema, adviceEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';
import { waterBalanceKey } from './get-water-balance';

/** The machine's depth at 100 %: an administrator's setting, the one learned from its reports, the one used. */
export function getApplicationDepth(sprinklerId: number): Promise<ApplicationDepth | false> {
  return callEndpoint(adviceEndpoints.applicationDepth, { params: { id: sprinklerId } });
}

export const applicationDepthKey = (sprinklerId: number) =>
  [...sprinklerKeys.detail(sprinklerId), 'application-depth'] as const;

export function useApplicationDepth(sprinklerId: number, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: applicationDepthKey(sprinklerId),
      queryFn: () => getApplicationDepth(sprinklerId),
      enabled,
    }),
  );
}

/**
 * An administrator's setting of the depth at 100 %, mm; null learns it from the machine's reports
 * again. The advice's percent timers follow it, so the water balance is read again.
 */
export async function updateApplicationDepth(
  sprinklerId: number,
  depthAtFullSpeed: number | null,
): Promise<ApplicationDepth | false> {
  const updated = await callEndpoint(adviceEndpoints.setApplicationDepth, {
    params: { id: sprinklerId },
    body: ApplicationDepthBodySchema.parse({ depthAtFullSpeed }),
  });
  if (updated) {
    queryClient.setQueryData(applicationDepthKey(sprinklerId), updated);
    void queryClient.invalidateQueries({ queryKey: waterBalanceKey(sprinklerId) });
  }
  return updated;
}

export function useUpdateApplicationDepth() {
  return useAction(updateApplicationDepth);
}
