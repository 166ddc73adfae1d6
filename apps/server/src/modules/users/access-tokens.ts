import { webcrypto } from 'node:crypto';
import { IdSchema } from '@pivot/contracts';
import { SignJWT, errors, jwtVerify } from 'jose';
import { z } from 'zod';

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

/** Short-lived bearer tokens (HS256) naming the user and the session they belong to. */
export class AccessTokens {
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

  /** The claims of a valid token, or null for an expired, forged or malformed one. */
  async verify(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      const claims = ClaimsSchema.safeParse(payload);
      return claims.success ? { userId: claims.data.sub, sessionId: claims.data.sid } : null;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
