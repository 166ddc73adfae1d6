import {
  MAX_PASSKEYS,
  type Passkey,
  PasskeyCreationOptionsSchema,
  PasskeyRequestOptionsSchema,
  type PasskeyAssertion,
  type PasskeyRegisterBody,
  type PasskeyRegistrationOptions,
  type PasskeySignInOptions,
  PasskeyTransportSchema,
} from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import { hashToken } from '../../secrets';
import type { LogsService } from '../logs';
import { assertCurrentPassword } from './current-password';
import {
  type PasskeyRow,
  countPasskeys,
  deletePasskey,
  findUsersPasskey,
  insertPasskey,
  listPasskeys,
  saveRegistrationChallenge,
  setPasskeyChallenge,
  takePasskeyUse,
  takeRegistrationChallenge,
} from './passkeys.repository';
import type { PasswordHasher } from './password-hasher';
import { type SecondFactorRequirement, assertSecondFactorLeft } from './second-factor-requirement';
import { findLiveChallenge } from './second-factor.repository';
import type { Throttle } from './throttle';
import type { UserRow } from './users.table';

/**
 * The WebAuthn library loads with the first passkey call, not with the server: it was the
 * heaviest of the server's libraries to load (166 ms and 28 MB, docs/benchmarks.md), and
 * many servers never see a passkey.
 */
const webAuthn = () => import('@simplewebauthn/server');
const base64Url = async () => (await import('@simplewebauthn/server/helpers')).isoBase64URL;

/** How long the browser's prompt, and the challenge it signs, may take. */
const PROMPT_SECONDS = 5 * 60;

/**
 * Where passkeys belong (WebAuthn's relying party): PUBLIC_URL's host name, which a passkey is
 * made for and answers only to, and its origin, which the browser writes into every answer.
 */
export type RelyingParty = { id: string; origin: string; name: string };

export function relyingPartyOf(publicUrl: string, name: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name };
}

type PasskeyEvent = 'user_passkey_added' | 'user_passkey_removed' | 'user_passkey_used';

function presentPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The transports WebAuthn names, of those an authenticator told: the browser is given only these. */
function knownTransports(transports: string[]) {
  return transports.flatMap((transport) => {
    const known = PasskeyTransportSchema.safeParse(transport);
    return known.success ? [known.data] : [];
  });
}

/**
 * Passkeys as a second factor (docs/two-factor.md#passkeys): made on the account page after the
 * password, then answering a sign-in's challenge in place of the app's code. Only the public key
 * is kept; @simplewebauthn checks the browser's answers against PUBLIC_URL's origin and host.
 */
export class PasskeyService {
  constructor(
    private readonly deps: SecondFactorRequirement & {
      db: Database;
      hasher: PasswordHasher;
      throttle: Throttle;
      logs: LogsService;
      logger: FastifyBaseLogger;
      relyingParty: RelyingParty;
    },
  ) {}

  async list(actor: SignedInUser): Promise<Passkey[]> {
    return (await listPasskeys(this.deps.db, actor.id)).map(presentPasskey);
  }

  /** The options of the browser's prompt to make a passkey; its challenge is kept five minutes, in place of one before. */
  async registrationOptions(actor: SignedInUser, password: string): Promise<PasskeyRegistrationOptions> {
    const { db, relyingParty } = this.deps;
    await assertCurrentPassword(this.deps, actor.id, password);
    const existing = await listPasskeys(db, actor.id);
    if (existing.length >= MAX_PASSKEYS) throw new AppError('too_many_passkeys');
    const { generateRegistrationOptions } = await webAuthn();
    const options = await generateRegistrationOptions({
      rpName: relyingParty.name,
      rpID: relyingParty.id,
      userName: actor.email,
      userID: new TextEncoder().encode(String(actor.id)),
      timeout: PROMPT_SECONDS * 1000,
      attestationType: 'none',
      // The authenticators that hold one of the user's passkeys already are not asked again.
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credentialId,
        transports: knownTransports(passkey.transports),
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await saveRegistrationChallenge(db, {
      userId: actor.id,
      challenge: options.challenge,
      expiresAt: new Date(Date.now() + PROMPT_SECONDS * 1000),
    });
    // The library types a descriptor's `type` as a plain string; the contract reads it as WebAuthn's one.
    return { options: PasskeyCreationOptionsSchema.parse(options) };
  }

  /** Keeps the passkey the browser made from the options (their challenge spent, right or wrong; an expired one takes none). */
  async register(actor: SignedInUser, body: PasskeyRegisterBody, client: ClientInfo): Promise<Passkey> {
    const { db, relyingParty } = this.deps;
    const expectedChallenge = await takeRegistrationChallenge(db, actor.id);
    if (!expectedChallenge) throw new AppError('passkey_rejected');
    const { verifyRegistrationResponse } = await webAuthn();
    const isoBase64URL = await base64Url();
    const verification = await verifyRegistrationResponse({
      response: body.response,
      expectedChallenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: false,
    }).catch((error: unknown) => this.rejected(error));
    if (!verification?.verified) throw new AppError('passkey_rejected');
    const { credential } = verification.registrationInfo;
    return db.transaction(async (tx) => {
      if ((await countPasskeys(tx, actor.id)) >= MAX_PASSKEYS) throw new AppError('too_many_passkeys');
      const row = await insertPasskey(tx, {
        userId: actor.id,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: body.response.response.transports ?? [],
        name: body.name,
      });
      if (!row) throw new AppError('passkey_rejected');
      await this.log(tx, 'user_passkey_added', actor, row.name, client);
      return presentPasskey(row);
    });
  }

  async remove(actor: SignedInUser, passkeyId: number, client: ClientInfo): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const removed = await deletePasskey(tx, actor.id, passkeyId);
      if (!removed) throw new AppError('passkey_not_found');
      await assertSecondFactorLeft(this.deps, tx, actor);
      await this.log(tx, 'user_passkey_removed', actor, removed.name, client);
    });
  }

  /** The options of the browser's prompt to answer a sign-in's challenge: its WebAuthn challenge kept with it. */
  async signInOptions(challengeToken: string): Promise<PasskeySignInOptions> {
    const { db, relyingParty } = this.deps;
    const tokenHash = hashToken(challengeToken);
    const challenge = await findLiveChallenge(db, tokenHash);
    if (!challenge) throw new AppError('second_factor_challenge_expired');
    const owned = await listPasskeys(db, challenge.userId);
    if (owned.length === 0) throw new AppError('passkey_not_found');
    const { generateAuthenticationOptions } = await webAuthn();
    const options = await generateAuthenticationOptions({
      rpID: relyingParty.id,
      timeout: PROMPT_SECONDS * 1000,
      userVerification: 'preferred',
      allowCredentials: owned.map((passkey) => ({
        id: passkey.credentialId,
        transports: knownTransports(passkey.transports),
      })),
    });
    if (!(await setPasskeyChallenge(db, tokenHash, options.challenge))) {
      throw new AppError('second_factor_challenge_expired');
    }
    return { options: PasskeyRequestOptionsSchema.parse(options) };
  }

  /**
   * Whether a passkey of the user signed the challenge of the sign-in's prompt, from PUBLIC_URL's
   * origin, with a counter past the one kept (a copied answer or a cloned key is refused). A use is logged.
   */
  async verifySignIn(
    user: UserRow,
    expectedChallenge: string | null,
    assertion: PasskeyAssertion,
    client: ClientInfo,
  ): Promise<boolean> {
    const { db, relyingParty } = this.deps;
    if (!expectedChallenge) return false;
    const passkey = await findUsersPasskey(db, user.id, assertion.id);
    if (!passkey) return false;
    const { verifyAuthenticationResponse } = await webAuthn();
    const isoBase64URL = await base64Url();
    const verification = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    }).catch((error: unknown) => this.rejected(error));
    if (!verification?.verified) return false;
    if (!(await takePasskeyUse(db, passkey.id, passkey.counter, verification.authenticationInfo.newCounter))) {
      return false;
    }
    await this.log(db, 'user_passkey_used', user, passkey.name, client);
    return true;
  }

  /** An answer @simplewebauthn refuses (wrong origin, challenge, signature, counter…): why, for the operator. */
  private rejected(error: unknown): undefined {
    this.deps.logger.info(
      { reason: error instanceof Error ? error.message : String(error) },
      'a passkey answer refused',
    );
    return undefined;
  }

  private async log(
    db: Queryable,
    eventType: PasskeyEvent,
    user: { id: number; email: string },
    passkeyName: string,
    client: ClientInfo,
  ): Promise<void> {
    await this.deps.logs.record(db, {
      eventType,
      actorUserId: user.id,
      subjectUserId: user.id,
      event: user.email,
      details: passkeyName,
      ip: client.ip,
    });
  }
}
