import crypto from 'node:crypto';
import { AppError } from '../../errors';

/** An uncompressed P-256 point: 0x04, then x and y of 32 bytes each. */
const P256_POINT_BYTES = 65;
const AUTH_SECRET_BYTES = 16;

function isP256Point(point: Buffer): boolean {
  if (point.length !== P256_POINT_BYTES || point[0] !== 0x04) return false;
  try {
    // Refused unless (x, y) lies on the curve.
    crypto.createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * A browser's push keys, checked as RFC 8291 needs them (`p256dh` a P-256 public key as an
 * uncompressed point, `auth` a 16-byte secret) and written back as unpadded base64url, so that the
 * same keys always compare equal; `push_keys_invalid` otherwise.
 */
export function checkedPushKeys(keys: { p256dh: string; auth: string }): { p256dh: string; auth: string } {
  const point = Buffer.from(keys.p256dh, 'base64url');
  const secret = Buffer.from(keys.auth, 'base64url');
  if (!isP256Point(point) || secret.length !== AUTH_SECRET_BYTES) throw new AppError('push_keys_invalid');
  return { p256dh: point.toString('base64url'), auth: secret.toString('base64url') };
}
