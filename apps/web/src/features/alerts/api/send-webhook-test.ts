import type { WebhookTestResult } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhookCalls } from './get-webhooks';

/** Sends a test payload now; answers how the receiver took it. */
export async function sendWebhookTest(place: WebhookPlace, id: number): Promise<WebhookTestResult | false> {
  const result = await callEndpoint(webhookCalls(place).sendTest, { params: { id } });
  await refreshWebhooks(place);
  return result;
}

export function useSendWebhookTest() {
  return useAction(sendWebhookTest);
}
