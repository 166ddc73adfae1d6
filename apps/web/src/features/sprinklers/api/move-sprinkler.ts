import { type Motion, MotionBodySchema, type SprinklerDetail, sprinklersEndpoints } from '@pivot/contracts';
import { type ApiFailure, requestEndpoint } from '@/lib/api-client';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';

/** The outcome and when it came, ms since the epoch. */
export type MotionOutcome = { answeredAt: number } & (
  { ok: true; detail: SprinklerDetail } | { ok: false; failure: ApiFailure }
);

/**
 * Sends a motion command and answers once the machine has confirmed it, or with the failure
 * (not confirmed in time, refused, no answer from the server), which has been shown as a toast.
 */
export async function moveSprinkler(id: number, motion: Motion): Promise<MotionOutcome> {
  const result = await requestEndpoint(sprinklersEndpoints.move, {
    params: { id },
    body: MotionBodySchema.parse({ motion }),
  });
  const answeredAt = Date.now();
  if (!result.ok) return { ...result, answeredAt };
  storeSprinklerDetail(result.data);
  return { ok: true, detail: result.data, answeredAt };
}

export function useMoveSprinkler() {
  return useAction(moveSprinkler);
}
