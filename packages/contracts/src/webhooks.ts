import { z } from 'zod';
import { IncidentKindSchema, IncidentPhaseSchema } from './alerts';
import { IdSchema, LanguageSchema } from './common';

/**
 * Alert webhooks (docs/alerts.md): addresses that receive every alert of their owner ('own'), or
 * every alert of every machine ('all', administrators only), as signed JSON.
 */
export const WEBHOOK_SCOPES = ['own', 'all'] as const;
export const WebhookScopeSchema = z.enum(WEBHOOK_SCOPES);
export type WebhookScope = z.infer<typeof WebhookScopeSchema>;

/** More than anyone needs; bounds what one account makes the server send. */
export const MAX_WEBHOOKS_PER_OWNER = 10;

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-pivot-signature';
/** The header naming one delivery: the same on each retry of it. */
export const WEBHOOK_DELIVERY_HEADER = 'x-pivot-delivery';

/** POST /api/account/webhooks/ and /api/admin/webhooks/: where to send. */
export const WebhookCreateBodySchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'Expected an https:// address' }).max(2048),
});
export type WebhookCreateBody = z.infer<typeof WebhookCreateBodySchema>;

/** PATCH …/webhooks/{id}/: pause or resume. Resuming clears the count of failures. */
export const WebhookUpdateBodySchema = z.strictObject({ paused: z.boolean() });
export type WebhookUpdateBody = z.infer<typeof WebhookUpdateBodySchema>;

/** A webhook as its owner sees it; times are ms since the epoch. */
export const WebhookSchema = z.strictObject({
  id: IdSchema,
  url: z.string(),
  scope: WebhookScopeSchema,
  /** The key the deliveries are signed with (docs/alerts.md): give it to the receiver. */
  secret: z.string(),
  createdAt: z.number(),
  /** Paused by its owner, or by the server after failing for a day (see pausedByServer). */
  paused: z.boolean(),
  pausedAt: z.number().nullable(),
  /** True when the server paused it because it kept failing. */
  pausedByServer: z.boolean(),
  lastDeliveryAt: z.number().nullable(),
  /** The last failure's reason (an HTTP status, a refusal, a timeout); null after a success. */
  lastError: z.string().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookListSchema = z.array(WebhookSchema);

/** POST …/webhooks/{id}/test: how the test delivery went, sent at once. */
export const WebhookTestResultSchema = z.strictObject({
  delivered: z.boolean(),
  /** The receiver's HTTP status; null when none came (refused, timed out, unreachable). */
  status: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;

const PayloadCommon = {
  /** Stable for one alert on all retries: receivers drop a repeated id. */
  id: z.string(),
  /** When it happened, ISO 8601 in UTC. */
  time: z.iso.datetime(),
  /** The language of `text` and `title`: the webhook owner's. */
  language: LanguageSchema,
  /** One line, ready to show as it is (Slack's and Teams' incoming webhooks take `text`). */
  text: z.string(),
};

/** What every alert webhook is POSTed (Content-Type: application/json; docs/alerts.md). */
export const WebhookPayloadSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('alert'),
    ...PayloadCommon,
    kind: IncidentKindSchema,
    phase: IncidentPhaseSchema,
    /** The incident's title in `language`, such as "Alarm" or "Pressure restored". */
    title: z.string(),
    machine: z.strictObject({ id: IdSchema, internalId: z.string(), name: z.string() }),
    /** What the incident carries: an alarm's reason, a pressure ("1.2 bar"); empty when nothing. */
    detail: z.string(),
    /** The machine's page in the web app. */
    link: z.string(),
  }),
  z.strictObject({ type: z.literal('test'), ...PayloadCommon }),
]);
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
