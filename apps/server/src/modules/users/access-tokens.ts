import { randomUUID, webcrypto } from 'node:crypto';
import { IdSchema } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { SignJWT, errors, exportSPKI, importSPKI, jwtVerify } from 'jose';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { LruCache } from '../../lru-cache';
import { RepeatingJob } from '../../time/repeating-job';
import { deleteAccessTokenKeysOlderThan, findAccessTokenKey, insertAccessTokenKey } from './auth.repository';

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
 * its life, and the signature's check (through WebCrypto) was a tenth of a small request.
 */
const REMEMBERED_TOKENS = 10_000;

/** What signs new tokens, and what checks a token by the key id (`kid`) in its header. */
export type TokenKeys = {
  algorithm: 'HS256' | 'EdDSA';
  signing(): { kid?: string; key: webcrypto.CryptoKey };
  /** The key that checks a token signed with `kid`, or undefined when none does. */
  checking(kid: string | undefined): Promise<webcrypto.CryptoKey | undefined>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/** JWT_SECRET: one HMAC key every instance is given, kept outside the database. */
export async function sharedSecretKeys(secret: string): Promise<TokenKeys> {
  const key = await webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    algorithm: 'HS256',
    signing: () => ({ key }),
    checking: async () => key,
    start: async () => undefined,
    stop: async () => undefined,
  };
}

const ROTATE_EVERY_MS = 60 * 60 * 1000;
/** Public keys remembered by kid: every instance's keys of the last hours. */
const REMEMBERED_KEYS = 1000;

/**
 * Without JWT_SECRET: this instance signs with an Ed25519 key pair made in its memory, its
 * private half never exported, a new one every hour; the public half goes to `access_token_keys`,
 * where every instance finds it by the token's `kid`. A key is deleted once every token it
 * signed has expired. The database, and so a backup, holds nothing that signs a token.
 */
export class InstanceTokenKeys implements TokenKeys {
  readonly algorithm = 'EdDSA';
  private current: { kid: string; key: webcrypto.CryptoKey } | undefined;
  private readonly known = new LruCache<string, webcrypto.CryptoKey>(REMEMBERED_KEYS);
  private readonly job = new RepeatingJob(() => this.rotate(), {
    everyMs: ROTATE_EVERY_MS,
    onError: (error) => this.deps.logger.warn({ err: error }, 'making a new access token key failed'),
  });

  constructor(private readonly deps: { db: Database; ttlSeconds: number; logger: FastifyBaseLogger }) {}

  /** Makes the first key pair (resolves once it is published), then a new one every hour. */
  async start(): Promise<void> {
    await this.job.runNow();
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  signing(): { kid: string; key: webcrypto.CryptoKey } {
    if (!this.current) throw new Error('access token keys not started');
    return this.current;
  }

  async checking(kid: string | undefined): Promise<webcrypto.CryptoKey | undefined> {
    if (!kid) return undefined;
    const known = this.known.get(kid);
    if (known) return known;
    const publicKey = await findAccessTokenKey(this.deps.db, kid);
    if (!publicKey) return undefined;
    const key = await importSPKI(publicKey, 'EdDSA');
    this.known.set(kid, key);
    return key;
  }

  private async rotate(): Promise<void> {
    const pair = (await webcrypto.subtle.generateKey({ name: 'Ed25519' }, false, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    const kid = randomUUID();
    await insertAccessTokenKey(this.deps.db, kid, await exportSPKI(pair.publicKey));
    this.known.set(kid, pair.publicKey);
    this.current = { kid, key: pair.privateKey };
    // A key signs for an hour, and its last token lives the access tokens' lifetime after that.
    await deleteAccessTokenKeysOlderThan(this.deps.db, ROTATE_EVERY_MS / 1000 + this.deps.ttlSeconds + 60);
  }
}

/** Short-lived bearer tokens naming the user and the session they belong to. */
export class AccessTokens {
  /** Tokens whose signature was found valid, with their claims and when they expire (ms). */
  private readonly checked = new LruCache<string, AccessClaims & { expiresAt: number }>(REMEMBERED_TOKENS);

  constructor(
    private readonly keys: TokenKeys,
    private readonly ttlSeconds: number,
  ) {}

  async issue(claims: AccessClaims): Promise<string> {
    const { kid, key } = this.keys.signing();
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: this.keys.algorithm, ...(kid ? { kid } : {}) })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(key);
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
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key = await this.keys.checking(header.kid);
          if (!key) throw new errors.JWKSNoMatchingKey();
          return key;
        },
        { issuer: ISSUER, algorithms: [this.keys.algorithm] },
      );
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
