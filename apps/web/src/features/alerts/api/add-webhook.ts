import { type ErrorCode, type Webhook, WebhookCreateBodySchema, WebhookSchema } from '@pivot/contracts';
import { apiRequest } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';
import { type WebhookPlace, refreshWebhooks, webhooksPath } from './get-webhooks';

/** Refusals the form shows beside the address instead of a toast. */
const SHOWN_IN_FORM: ReadonlySet<ErrorCode> = new Set([
  'outbound_address_refused',
  'outbound_https_required',
  'outbound_host_not_found',
  'too_many_webhooks',
  'validation_error',
]);

export type AddWebhookResult = { ok: true; webhook: Webhook } | { ok: false; refusal: ErrorCode | null };

/** Adds a webhook; an address the server refuses comes back as its code, for the form to explain. */
export async function addWebhook(place: WebhookPlace, url: string): Promise<AddWebhookResult> {
  const result = await apiRequest({
    method: 'POST',
    path: webhooksPath(place),
    body: WebhookCreateBodySchema.parse({ url }),
    response: WebhookSchema,
    handlesFailure: (failure) => failure.error !== null && SHOWN_IN_FORM.has(failure.error.code),
  });
  if (!result.ok) return { ok: false, refusal: result.failure.error?.code ?? null };
  await refreshWebhooks(place);
  return { ok: true, webhook: result.data };
}

export function useAddWebhook() {
  return useAction(addWebhook);
}
