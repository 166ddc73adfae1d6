import { type ErrorCode, OUTBOUND_REFUSALS, type Webhook, WebhookCreateBodySchema } from '@pivot/contracts';
import { requestEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhookCalls } from './get-webhooks';

/** Refusals the form shows beside the address instead of a toast. */
const SHOWN_IN_FORM: ReadonlySet<ErrorCode> = new Set([...OUTBOUND_REFUSALS, 'too_many_webhooks', 'validation_error']);

export type AddWebhookResult = { ok: true; webhook: Webhook } | { ok: false; refusal: ErrorCode | null };

/** Adds a webhook; an address the server refuses comes back as its code, for the form to explain. */
export async function addWebhook(place: WebhookPlace, url: string): Promise<AddWebhookResult> {
  const result = await requestEndpoint(webhookCalls(place).add, {
    body: WebhookCreateBodySchema.parse({ url }),
    handlesFailure: (failure) => failure.error !== null && SHOWN_IN_FORM.has(failure.error.code),
  });
  if (!result.ok) return { ok: false, refusal: result.failure.error?.code ?? null };
  await refreshWebhooks(place);
  return { ok: true, webhook: result.data };
}

export function useAddWebhook() {
  return useAction(addWebhook);
}
