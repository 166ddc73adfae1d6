import type { Queryable } from '../../db/client';
import type { OutgoingMail } from './mail-transport';

/**
 * What a mail's body holds where its link's secret goes, in the outbox and in every backup of it:
 * the secret itself is made by its issuer only as the mail is sent (docs/decisions/0006-mailed-secrets.md).
 */
export const SECRET_PLACEHOLDER = '{{secret}}';

/** Which issuer makes a mail's secret, and for which of its records (an account link's id). */
export type MailSecret = { issuer: string; id: number };

/**
 * Makes a new secret for the record as its mail is sent, storing only what checks it later (a
 * hash); null when the record no longer wants a mail (replaced, used, expired, its account gone).
 */
export type SecretIssuer = (db: Queryable, id: number) => Promise<string | null>;

/** The mail as it is sent: the placeholder replaced by the secret, which is URL- and HTML-safe. */
export function fillSecret(mail: OutgoingMail, secret: string): OutgoingMail {
  if (!/^[A-Za-z0-9_-]+$/.test(secret)) throw new Error('a mailed secret must be URL-safe');
  return {
    ...mail,
    text: mail.text.replaceAll(SECRET_PLACEHOLDER, secret),
    html: mail.html.replaceAll(SECRET_PLACEHOLDER, secret),
  };
}
