import { webcrypto } from 'node:crypto';
import { IdSchema } from '@pivot/contracts';
import { SignJWT, errors, jwtVerify } from 'jose';
import { z } from 'zod';
import { LruCache } from '../../lru-cache';

export type AccessClaims = { userId: number; sessionId: string };

const ISSUER = 'pivot-dashboard';

/** A signed token still names its user and session in the shapes the database keeps them. */
const ClaimsSchema = z.object({
  sub: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(IdSchema),
  sid: z.uuid(),
});

/**
 * How many checked tokens are remembered: a browser sends the same token with every request of
 * its life, and the signature's check (HMAC through WebCrypto) was a tenth of a small request.
 */
const REMEMBERED_TOKENS = 10_000;

/** Short-lived bearer tokens (HS256) naming the user and the session they belong to. */
export class AccessTokens {
  /** Tokens whose signature was found valid, with their claims and when they expire (ms). */
  private readonly checked = new LruCache<string, AccessClaims & { expiresAt: number }>(REMEMBERED_TOKENS);
  /** Imported once: jose would import raw bytes again for every token it signs or checks. */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  async issue(claims: AccessClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.key);
  }

  /**
   * The claims of a valid token, or null for an expired, forged or malformed one. Whether its
   * session is still open is for the caller to ask: a token checked before is only not checked
   * again (the same string, so the same signature), and still expires when it says.
   */
  async verify(token: string): Promise<AccessClaims | null> {
    const known = this.checked.get(token);
    if (known) return Date.now() < known.expiresAt ? { userId: known.userId, sessionId: known.sessionId } : null;
    try {
      const { payload } = await jwtVerify(token, await this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      const claims = ClaimsSchema.safeParse(payload);
      if (!claims.success || payload.exp === undefined) return null;
      const verified = { userId: claims.data.sub, sessionId: claims.data.sid };
      this.checked.set(token, { ...verified, expiresAt: payload.exp * 1000 });
      return verified;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
