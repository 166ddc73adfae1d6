import { IdParamsSchema, NoContentSchema } from '../common';
import { endpoint } from '../endpoint';
import { OUTBOUND_REFUSALS } from '../errors';
import {
  WebhookCreateBodySchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookTestResultSchema,
  WebhookUpdateBodySchema,
} from '../webhooks';

const tag = 'webhooks';

/**
 * The same five calls in two places: a user's own webhooks under /account/webhooks/, and the
 * administrators' webhooks for every alert under /admin/webhooks/.
 */
function webhookCalls(prefix: '/account/webhooks' | '/admin/webhooks', whose: string) {
  return {
    list: endpoint({
      method: 'GET',
      path: `${prefix}/`,
      answer: WebhookListSchema,
      errors: [],
      tag,
      summary: `${whose} webhooks, with each one's last delivery`,
    }),
    add: endpoint({
      method: 'POST',
      path: `${prefix}/`,
      body: WebhookCreateBodySchema,
      answer: WebhookSchema,
      status: 201,
      errors: ['too_many_webhooks', ...OUTBOUND_REFUSALS],
      tag,
      summary: `Adds one of ${whose.toLowerCase()} webhooks`,
    }),
    setPaused: endpoint({
      method: 'PATCH',
      path: `${prefix}/:id/`,
      params: IdParamsSchema,
      body: WebhookUpdateBodySchema,
      answer: WebhookSchema,
      errors: ['webhook_not_found'],
      tag,
      summary: 'Pauses or resumes a webhook',
    }),
    remove: endpoint({
      method: 'DELETE',
      path: `${prefix}/:id/`,
      params: IdParamsSchema,
      answer: NoContentSchema,
      status: 204,
      errors: ['webhook_not_found'],
      tag,
      summary: 'Removes a webhook',
    }),
    sendTest: endpoint({
      method: 'POST',
      path: `${prefix}/:id/test`,
      params: IdParamsSchema,
      answer: WebhookTestResultSchema,
      errors: ['webhook_not_found'],
      tag,
      summary: 'Sends a test payload now and answers how the receiver took it',
    }),
  };
}

export const account = webhookCalls('/account/webhooks', "The signed-in user's");
export const admin = webhookCalls('/admin/webhooks', "The administrators'");
