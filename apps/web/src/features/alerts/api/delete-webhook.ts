import { requestEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhookCalls } from './get-webhooks';

export async function deleteWebhook(place: WebhookPlace, id: number): Promise<boolean> {
  const result = await requestEndpoint(webhookCalls(place).remove, { params: { id } });
  await refreshWebhooks(place);
  return result.ok;
}

export function useDeleteWebhook() {
  return useAction(deleteWebhook);
}
