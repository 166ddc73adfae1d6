import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: 32 random bytes, prefixed so that it is recognised where it is pasted. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The signature header's value (docs/alerts.md): `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`, keyed with the webhook's secret, as GitHub and Stripe sign theirs. The time is
 * signed too, so a receiver can refuse an old delivery replayed.
 */
export function signatureHeader(secret: string, body: string, now: number): string {
  const timestamp = Math.floor(now / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}
