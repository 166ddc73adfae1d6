import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * A saved answer may hold a secret (adding a webhook answers its signing secret), and the table is
 * in every backup. So an answer is kept sealed (AES-256-GCM) under a key derived from the request's
 * Idempotency-Key, which the table keeps only as its hash: only whoever repeats the request, with
 * its key, can read the answer again.
 */

const INFO = 'pivot idempotent answer';

function sealingKey(idempotencyKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', idempotencyKey, '', INFO, 32));
}

/** The answer's body sealed under the request's key: nonce, ciphertext and tag, base64url, joined by dots. */
export function sealAnswer(body: string, idempotencyKey: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(idempotencyKey), nonce);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return [nonce, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** The body sealed by `sealAnswer` under the same key; throws when the key or the seal is wrong. */
export function openAnswer(sealed: string, idempotencyKey: string): string {
  const [nonce, ciphertext, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!nonce || !ciphertext || !tag) throw new Error('not a sealed answer');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(idempotencyKey), nonce);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
