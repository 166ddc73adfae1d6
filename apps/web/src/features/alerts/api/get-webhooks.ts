import { type Webhook, WebhookListSchema } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';

/** A user's own webhooks (account page), or the administrators' for every alert (admin panel). */
export type WebhookPlace = 'account' | 'admin';

export const webhookKeys = {
  of: (place: WebhookPlace) => ['webhooks', place] as const,
};

export function webhooksPath(place: WebhookPlace): string {
  return place === 'account' ? '/account/webhooks/' : '/admin/webhooks/';
}

export function getWebhooks(place: WebhookPlace): Promise<Webhook[] | false> {
  return apiCall({ method: 'GET', path: webhooksPath(place), response: WebhookListSchema });
}

export function webhooksQueryOptions(place: WebhookPlace) {
  return queryOptions({ queryKey: webhookKeys.of(place), queryFn: () => getWebhooks(place) });
}

export function useWebhooks(place: WebhookPlace) {
  return useQuery(webhooksQueryOptions(place));
}

/** After a change: the list is read again, with its last delivery and error. */
export function refreshWebhooks(place: WebhookPlace): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: webhookKeys.of(place) });
}
