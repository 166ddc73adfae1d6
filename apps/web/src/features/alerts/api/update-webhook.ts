import { type Webhook, WebhookUpdateBodySchema } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhookCalls } from './get-webhooks';

/** Pauses or resumes a webhook. */
export async function setWebhookPaused(place: WebhookPlace, id: number, paused: boolean): Promise<Webhook | false> {
  const updated = await callEndpoint(webhookCalls(place).setPaused, {
    params: { id },
    body: WebhookUpdateBodySchema.parse({ paused }),
  });
  await refreshWebhooks(place);
  return updated;
}

export function useSetWebhookPaused() {
  return useAction(setWebhookPaused);
}
