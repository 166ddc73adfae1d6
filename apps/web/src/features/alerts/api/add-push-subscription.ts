import { type PushSubscriptionBody, PushSubscriptionBodySchema, alertsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';

export const addPushSubscriptionInputSchema = PushSubscriptionBodySchema;

/** Tells the server where to push this browser's alert notifications. */
export async function addPushSubscription(input: PushSubscriptionBody): Promise<boolean> {
  const answer = await callEndpoint(alertsEndpoints.subscribePush, {
    body: addPushSubscriptionInputSchema.parse(input),
  });
  return answer !== false;
}
