import { type WebhookTestResult, WebhookTestResultSchema } from '@pivot/contracts';
import { apiCall } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhooksPath } from './get-webhooks';

/** Sends a test payload now; answers how the receiver took it. */
export async function sendWebhookTest(place: WebhookPlace, id: number): Promise<WebhookTestResult | false> {
  const result = await apiCall({
    method: 'POST',
    path: `${webhooksPath(place)}${id}/test`,
    response: WebhookTestResultSchema,
  });
  await refreshWebhooks(place);
  return result;
}

export function useSendWebhookTest() {
  return useAction(sendWebhookTest);
}
