import { type PushSubscriptionBody, PushSubscriptionBodySchema } from '@pivot/contracts';
import { z } from 'zod';
import { apiCall } from '@/lib/api-client';

/** The answer: 204, no content. */
const NoContentSchema = z.undefined();

export const addPushSubscriptionInputSchema = PushSubscriptionBodySchema;

/** Tells the server where to push this browser's alert notifications. */
export async function addPushSubscription(input: PushSubscriptionBody): Promise<boolean> {
  const answer = await apiCall({
    method: 'POST',
    path: '/push/subscriptions/',
    body: addPushSubscriptionInputSchema.parse(input),
    response: NoContentSchema,
  });
  return answer !== false;
}
