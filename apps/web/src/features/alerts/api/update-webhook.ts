import { type Webhook, WebhookSchema, WebhookUpdateBodySchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhooksPath } from './get-webhooks';

/** Pauses or resumes a webhook. */
export async function setWebhookPaused(place: WebhookPlace, id: number, paused: boolean): Promise<Webhook | false> {
  const updated = await apiCall({
    method: 'PATCH',
    path: `${webhooksPath(place)}${id}/`,
    body: WebhookUpdateBodySchema.parse({ paused }),
    response: WebhookSchema,
  });
  await refreshWebhooks(place);
  return updated;
}

export function useSetWebhookPaused() {
  return useAction(setWebhookPaused);
}
