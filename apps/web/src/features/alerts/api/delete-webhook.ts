import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhooksPath } from './get-webhooks';

/** The answer of a removal: 204, no content. */
const NoContentSchema = z.undefined();

export async function deleteWebhook(place: WebhookPlace, id: number): Promise<boolean> {
  const result = await apiRequest({
    method: 'DELETE',
    path: `${webhooksPath(place)}${id}/`,
    response: NoContentSchema,
  });
  await refreshWebhooks(place);
  return result.ok;
}

export function useDeleteWebhook() {
  return useAction(deleteWebhook);
}
