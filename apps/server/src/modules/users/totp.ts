import { Secret, TOTP } from 'otpauth';
import { PRODUCT_NAME } from '../../config';

/** RFC 6238 as every authenticator app reads it by default: SHA-1, 6 digits, 30 seconds. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after now is taken too: a phone's clock off by up to 30 s. */
const STEPS_EITHER_SIDE = 1;

function totp(secret: string, account = ''): TOTP {
  return new TOTP({
    issuer: PRODUCT_NAME,
    label: account,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
  });
}

/** A new secret: 160 bits, as RFC 4226 recommends, in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function totpUri(secret: string, account: string): string {
  return totp(secret, account).toString();
}

/** The code the app shows at `timestamp` (ms): for tests and the simulator of a person. */
export function totpCode(secret: string, timestamp: number): string {
  return totp(secret).generate({ timestamp });
}

/**
 * The 30-second step the code is of, when it is one of the steps next to `now`'s; null when it
 * is of none. The caller takes each step once (second-factor.repository.ts, takeStep).
 */
export function totpStep(secret: string, code: string, now: number): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: now, window: STEPS_EITHER_SIDE });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
