import type { Motion, SprinklerDetail } from '@pivot/contracts';
import { type ApiFailure, requestEndpoint } from '@/lib/api-client';
import { fetchAnswerSchemas, laterEndpoint } from '@/lib/checked-later';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';

/** Its declaration and the body's schema come with the first screen's answers' (lib/checked-later.ts). */
const moveEndpoint = laterEndpoint((contracts) => contracts.sprinklersEndpoints.move, 'POST', '/sprinkler/:id/motion');

/** The outcome and when it came, ms since the epoch. */
export type MotionOutcome = { answeredAt: number } & (
  { ok: true; detail: SprinklerDetail } | { ok: false; failure: ApiFailure }
);

/**
 * Sends a motion command and answers once the machine has confirmed it, or with the failure
 * (not confirmed in time, refused, no answer from the server), which has been shown as a toast.
 */
export async function moveSprinkler(id: number, motion: Motion): Promise<MotionOutcome> {
  // Fetched by now unless the user acts as the page shows: then at once, not after the first screen's reads.
  const { MotionBodySchema } = await fetchAnswerSchemas();
  const result = await requestEndpoint(moveEndpoint, {
    params: { id },
    body: MotionBodySchema.parse({ motion }),
  });
  const answeredAt = Date.now();
  if (!result.ok) return { ...result, answeredAt };
  storeSprinklerDetail(result.data);
  return { ok: true, detail: result.data, answeredAt };
}
