import { type PushUnsubscribeBody, PushUnsubscribeBodySchema, alertsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';

export const removePushSubscriptionInputSchema = PushUnsubscribeBodySchema;

/** Tells the server to push nothing more to this browser. */
export async function removePushSubscription(input: PushUnsubscribeBody): Promise<boolean> {
  const answer = await callEndpoint(alertsEndpoints.unsubscribePush, {
    body: removePushSubscriptionInputSchema.parse(input),
  });
  return answer !== false;
}
