import {
  RECOVERY_CODE_COUNT,
  REMEMBERED_BROWSER_DAYS,
  type RecoveryCodes,
  SIGN_IN_CHALLENGE_SECONDS,
  type SecondFactorChallenge,
  type SecondFactorMethod,
  type SecondFactorSetup,
  type SecondFactorSignInBody,
  type SecondFactorStatus,
} from '@pivot/contracts';
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { SecretBox } from '../../secret-box';
import { hashToken, randomToken } from '../../secrets';
import type { LogsService } from '../logs';
import { assertCurrentPassword } from './current-password';
import { countPasskeys, deleteUsersPasskeys } from './passkeys.repository';
import type { PasskeyService } from './passkeys.service';
import type { PasswordHasher } from './password-hasher';
import { type SecondFactorRequirement, assertSecondFactorLeft } from './second-factor-requirement';
import {
  countRecoveryCodesLeft,
  deleteChallenge,
  deleteSecondFactor,
  enableSecondFactor,
  findLiveChallenge,
  findSecondFactor,
  insertChallenge,
  insertRememberedBrowser,
  isRememberedBrowser,
  recordChallengeFailure,
  replaceRecoveryCodes,
  savePendingSecondFactor,
  takeStep,
  useRecoveryCode,
} from './second-factor.repository';
import { BACKOFF_RULES, type Throttle } from './throttle';
import { newTotpSecret, totpStep, totpUri } from './totp';
import { findUserById } from './users.repository';
import type { UserRow } from './users.table';

/** Wrong codes one challenge takes before the password is asked again. */
const WRONG_CODES_PER_CHALLENGE = 5;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const REMEMBERED_BROWSER_SECONDS = REMEMBERED_BROWSER_DAYS * 24 * 60 * 60;

/** A browser to remember: the cookie's token, and how long it lives. */
export type RememberedBrowser = { token: string; maxAgeSeconds: number };

/** A second step passed: whose, with the login's "remember me", and the browser to remember if asked. */
export type PassedSecondFactor = { user: UserRow; persistent: boolean; remember?: RememberedBrowser };

type SecondFactorEvent =
  | 'user_second_factor_enabled'
  | 'user_second_factor_disabled'
  | 'user_second_factor_reset'
  | 'user_recovery_code_used'
  | 'user_recovery_codes_renewed';

/**
 * A recovery code: 16 characters of an alphabet without look-alikes (80 bits), in groups of four.
 * Kept only as the SHA-256 of its 16 characters, which is what RecoveryCodeSchema reads back.
 */
function newRecoveryCode(): string {
  const characters = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return characters.join('').replace(/(.{4})(?!$)/g, '$1-');
}

const recoveryCodeHash = (code: string) => hashToken(code.replaceAll('-', ''));

/**
 * Two-step sign-in (docs/two-factor.md): an authenticator app's code (TOTP) or a passkey after the
 * password, ten single-use recovery codes, browsers remembered for 30 days, an administrator's
 * reset. The app's secret is sealed under the server's sealing key; codes and tokens are kept as hashes.
 */
export class SecondFactorService {
  constructor(
    private readonly deps: SecondFactorRequirement & {
      db: Database;
      box: SecretBox;
      hasher: PasswordHasher;
      throttle: Throttle;
      logs: LogsService;
      logger: FastifyBaseLogger;
      /** The passkeys a sign-in's challenge may be answered with instead of a code. */
      passkeys: Pick<PasskeyService, 'verifySignIn'>;
    },
  ) {}

  async status(actor: SignedInUser): Promise<SecondFactorStatus> {
    const factor = await findSecondFactor(this.deps.db, actor.id);
    const enabledAt = factor?.enabledAt ?? null;
    return {
      enabled: enabledAt !== null,
      enabled_at: enabledAt?.toISOString() ?? null,
      recovery_codes_left: enabledAt ? await countRecoveryCodesLeft(this.deps.db, actor.id) : 0,
    };
  }

  /** A new secret for the user's app, in place of a set-up not confirmed; none over one in force. */
  async setup(actor: SignedInUser, password: string): Promise<SecondFactorSetup> {
    await assertCurrentPassword(this.deps, actor.id, password);
    const secret = newTotpSecret();
    const saved = await savePendingSecondFactor(this.deps.db, actor.id, this.deps.box.seal(String(actor.id), secret));
    if (!saved) throw new AppError('second_factor_already_enabled');
    return { secret, uri: totpUri(secret, actor.email) };
  }

  /** Turns the set-up on with a code from the app; the recovery codes are answered this once. */
  async confirm(actor: SignedInUser, code: string, client: ClientInfo): Promise<RecoveryCodes> {
    const factor = await findSecondFactor(this.deps.db, actor.id);
    if (!factor || factor.enabledAt) throw new AppError('second_factor_not_started');
    const step = this.stepOf(actor.id, factor.sealedSecret, code);
    if (step === null) throw new AppError('second_factor_incorrect');
    return this.deps.db.transaction(async (tx) => {
      if (!(await enableSecondFactor(tx, actor.id, step))) throw new AppError('second_factor_incorrect');
      const codes = await this.newRecoveryCodes(tx, actor.id);
      await this.log(tx, 'user_second_factor_enabled', actor.id, actor.email, actor.email, client);
      return { recovery_codes: codes };
    });
  }

  /** The app off; refused to a user who must keep a second factor and has no passkey to keep. */
  async disable(actor: SignedInUser, password: string, client: ClientInfo): Promise<void> {
    await assertCurrentPassword(this.deps, actor.id, password);
    await this.deps.db.transaction(async (tx) => {
      if (!(await deleteSecondFactor(tx, actor.id))) throw new AppError('second_factor_not_enabled');
      await assertSecondFactorLeft(this.deps, tx, actor);
      await this.log(tx, 'user_second_factor_disabled', actor.id, actor.email, actor.email, client);
    });
  }

  async renewRecoveryCodes(actor: SignedInUser, password: string, client: ClientInfo): Promise<RecoveryCodes> {
    await assertCurrentPassword(this.deps, actor.id, password);
    const factor = await findSecondFactor(this.deps.db, actor.id);
    if (!factor?.enabledAt) throw new AppError('second_factor_not_enabled');
    return this.deps.db.transaction(async (tx) => {
      const codes = await this.newRecoveryCodes(tx, actor.id);
      await this.log(tx, 'user_recovery_codes_renewed', actor.id, actor.email, actor.email, client);
      return { recovery_codes: codes };
    });
  }

  /**
   * An administrator turns a person's second factor off (a lost phone and codes), their passkeys
   * with it (a lost phone holds those too); they set it up again.
   */
  async reset(admin: SignedInUser, userId: number, client: ClientInfo): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const user = await findUserById(tx, userId);
      if (!user) throw new AppError('user_not_found');
      const appWasOn = await deleteSecondFactor(tx, userId);
      const passkeysRemoved = await deleteUsersPasskeys(tx, userId);
      if (!appWasOn && passkeysRemoved === 0) throw new AppError('second_factor_not_enabled');
      await this.log(tx, 'user_second_factor_reset', admin.id, user.email, admin.email, client, userId);
    });
  }

  /**
   * What a right password of this user must be followed by: nothing without a second factor or
   * from a browser remembered, else the app's code, a passkey, or either.
   */
  async methodsFor(userId: number, rememberedBrowser: string | undefined): Promise<SecondFactorMethod[]> {
    const { db } = this.deps;
    const methods: SecondFactorMethod[] = [
      ...((await findSecondFactor(db, userId))?.enabledAt ? (['code'] as const) : []),
      ...((await countPasskeys(db, userId)) > 0 ? (['passkey'] as const) : []),
    ];
    const remembered = rememberedBrowser && (await isRememberedBrowser(db, hashToken(rememberedBrowser), userId));
    return remembered ? [] : methods;
  }

  /** The challenge a right password is answered with: single-use, for SIGN_IN_CHALLENGE_SECONDS. */
  async challenge(userId: number, persistent: boolean, methods: SecondFactorMethod[]): Promise<SecondFactorChallenge> {
    const token = randomToken();
    await insertChallenge(this.deps.db, {
      tokenHash: hashToken(token),
      userId,
      persistent,
      expiresAt: new Date(Date.now() + SIGN_IN_CHALLENGE_SECONDS * 1000),
    });
    return { secondFactor: { challenge: token, expiresInSeconds: SIGN_IN_CHALLENGE_SECONDS, methods } };
  }

  /**
   * The second step: the challenge with a code of the app (each 30-second step taken once), an
   * unused recovery code or a passkey's answer. A wrong one counts against the challenge and the
   * account; the fifth spends the challenge, and the password is asked again.
   */
  async pass(body: SecondFactorSignInBody, client: ClientInfo): Promise<PassedSecondFactor> {
    const { db, throttle } = this.deps;
    const tokenHash = hashToken(body.challenge);
    const challenge = await findLiveChallenge(db, tokenHash);
    if (!challenge) throw new AppError('second_factor_challenge_expired');
    const rule = BACKOFF_RULES.secondFactorPerAccount;
    const accountKey = String(challenge.userId);
    throttle.assertWaited((await throttle.backoff(rule, accountKey)).waitMs);
    const user = await findUserById(db, challenge.userId);
    if (!user) throw new AppError('second_factor_challenge_expired');

    const passed = await this.answerTaken(user, challenge.passkeyChallenge, body, client);
    if (!passed) {
      await throttle.record(rule, accountKey);
      if ((await recordChallengeFailure(db, tokenHash)) >= WRONG_CODES_PER_CHALLENGE) {
        await deleteChallenge(db, tokenHash);
        throw new AppError('second_factor_challenge_expired');
      }
      throw new AppError('passkey' in body ? 'passkey_rejected' : 'second_factor_incorrect');
    }
    if (!(await deleteChallenge(db, tokenHash))) throw new AppError('second_factor_challenge_expired');
    await throttle.clear(rule, accountKey);
    if ('recoveryCode' in body) {
      await this.log(db, 'user_recovery_code_used', user.id, user.email, user.email, client);
    }
    return {
      user,
      persistent: challenge.persistent,
      ...(body.rememberBrowser ? { remember: await this.rememberBrowser(user.id) } : {}),
    };
  }

  /** Whether the answer passes; an app turned off or reset since the password was given starts that sign-in again. */
  private async answerTaken(
    user: UserRow,
    passkeyChallenge: string | null,
    body: SecondFactorSignInBody,
    client: ClientInfo,
  ): Promise<boolean> {
    if ('passkey' in body) return this.deps.passkeys.verifySignIn(user, passkeyChallenge, body.passkey, client);
    const factor = await findSecondFactor(this.deps.db, user.id);
    if (!factor?.enabledAt) throw new AppError('second_factor_challenge_expired');
    return 'code' in body
      ? this.takeCode(user.id, factor.sealedSecret, body.code)
      : useRecoveryCode(this.deps.db, user.id, recoveryCodeHash(body.recoveryCode));
  }

  private async takeCode(userId: number, sealedSecret: string, code: string): Promise<boolean> {
    const step = this.stepOf(userId, sealedSecret, code);
    return step !== null && (await takeStep(this.deps.db, userId, step));
  }

  /** The step of a code of the user's app, or null; a secret that no longer opens (the sealing key replaced) takes no code. */
  private stepOf(userId: number, sealedSecret: string, code: string): number | null {
    const secret = this.deps.box.open(String(userId), sealedSecret);
    if (secret === undefined) {
      this.deps.logger.warn(
        { userId },
        'a second factor sealed under another key: its user signs in with a recovery code',
      );
      return null;
    }
    return totpStep(secret, code, Date.now());
  }

  private async rememberBrowser(userId: number): Promise<RememberedBrowser> {
    const token = randomToken();
    await insertRememberedBrowser(this.deps.db, {
      tokenHash: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + REMEMBERED_BROWSER_SECONDS * 1000),
    });
    return { token, maxAgeSeconds: REMEMBERED_BROWSER_SECONDS };
  }

  private async newRecoveryCodes(db: Queryable, userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await replaceRecoveryCodes(db, userId, codes.map(recoveryCodeHash));
    return codes;
  }

  private async log(
    db: Queryable,
    eventType: SecondFactorEvent,
    actorUserId: number,
    subjectEmail: string,
    actorEmail: string,
    client: ClientInfo,
    subjectUserId = actorUserId,
  ): Promise<void> {
    await this.deps.logs.record(db, {
      eventType,
      actorUserId,
      subjectUserId,
      event: subjectEmail,
      details: actorEmail,
      ip: client.ip,
    });
  }
}
