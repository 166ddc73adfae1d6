import { createHmac } from 'node:crypto';

const STEP_SECONDS = 30;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The bytes of a base32 secret (RFC 4648, as an authenticator app reads it: case and spaces ignored, no padding). */
function base32Bytes(secret: string): Buffer {
  let bits = '';
  for (const char of secret.replace(/[\s=]/g, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`Not a base32 letter: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The 30-second step a moment falls in. */
export function totpStep(at = Date.now()): number {
  return Math.floor(at / 1000 / STEP_SECONDS);
}

/** An authenticator app's code (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) for one step. */
export function totpCode(secret: string, step = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = (digest.at(-1) ?? 0) & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

/**
 * A code of a step later than one already used (the server takes each step once, and none before
 * a later one): the step now, or the next one, which the server's one step of drift accepts too,
 * so no test waits half a minute for it.
 */
export function totpCodeAfter(secret: string, usedStep: number): { code: string; step: number } {
  const step = Math.max(totpStep(), usedStep + 1);
  return { code: totpCode(secret, step), step };
}
