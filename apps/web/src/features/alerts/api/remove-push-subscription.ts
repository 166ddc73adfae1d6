import { type PushUnsubscribeBody, PushUnsubscribeBodySchema } from '@pivot/contracts';
import { z } from 'zod';
import { apiCall } from '@/lib/api-client';

/** The answer: 204, no content. */
const NoContentSchema = z.undefined();

export const removePushSubscriptionInputSchema = PushUnsubscribeBodySchema;

/** Tells the server to push nothing more to this browser. */
export async function removePushSubscription(input: PushUnsubscribeBody): Promise<boolean> {
  const answer = await apiCall({
    method: 'DELETE',
    path: '/push/subscriptions/',
    body: removePushSubscriptionInputSchema.parse(input),
    response: NoContentSchema,
  });
  return answer !== false;
}
