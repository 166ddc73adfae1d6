import {
  type ApplicationDepth,
  type ApplicationDepthBody,
  ApplicationDepthBodySchema,
  adviceEndpoints,
} from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryClient, readAgain } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';

/** The machine's pace at 100 % (depth, hours a circle): an administrator's settings, those learned from its reports, those used. */
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
 * An administrator's setting of the pace at 100 % (depth, mm; hours a circle); null learns each
 * from the machine's reports again. The advice's percent timers follow it, so the water balance
 * and what follows from them are read again.
 */
export async function updateApplicationDepth(
  sprinklerId: number,
  pace: ApplicationDepthBody,
): Promise<ApplicationDepth | false> {
  const updated = await callEndpoint(adviceEndpoints.setApplicationDepth, {
    params: { id: sprinklerId },
    body: ApplicationDepthBodySchema.parse(pace),
  });
  if (updated) {
    queryClient.setQueryData(applicationDepthKey(sprinklerId), updated);
    // The balance's timers, the program from the advice and the autopilot's plan all follow the pace.
    void readAgain({ queryKey: sprinklerKeys.detail(sprinklerId) });
  }
  return updated;
}

export function useUpdateApplicationDepth() {
  return useAction(updateApplicationDepth);
}
