import { type Webhook, webhooksEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { readAgain } from '@/lib/query-client';

/** A user's own webhooks (account page), or the administrators' for every alert (admin panel). */
export type WebhookPlace = 'account' | 'admin';

export const webhookKeys = {
  of: (place: WebhookPlace) => ['webhooks', place] as const,
};

/** The five calls of a place: the same under /account/webhooks/ and /admin/webhooks/. */
export function webhookCalls(place: WebhookPlace) {
  return webhooksEndpoints[place];
}

export function getWebhooks(place: WebhookPlace): Promise<Webhook[] | false> {
  return callEndpoint(webhookCalls(place).list, {});
}

export function webhooksQueryOptions(place: WebhookPlace) {
  return queryOptions({ queryKey: webhookKeys.of(place), queryFn: () => getWebhooks(place) });
}

export function useWebhooks(place: WebhookPlace) {
  return useQuery(webhooksQueryOptions(place));
}

/** After a change: the list is read again, with its last delivery and error. */
export function refreshWebhooks(place: WebhookPlace): Promise<void> {
  return readAgain({ queryKey: webhookKeys.of(place) });
}
