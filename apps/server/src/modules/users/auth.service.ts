import type { SQL, SQLWrapper } from 'drizzle-orm';
import {
  type LoginBody,
  type SecondFactorChallenge,
  type SecondFactorSignInBody,
  type SetPasswordBody,
  brokenPasswordRules,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError, PasswordRejectedError } from '../../errors';
import type { Authenticated, ClientInfo } from '../../http/request-context';
import { hashToken, randomToken } from '../../secrets';
import type { LogsService } from '../logs';
import type { AccessTokens } from './access-tokens';
import type { AccountMail } from './account-mail';
import {
  type SessionRow,
  consumeLinkToken,
  extendSession,
  findRefreshToken,
  prepareSessionUserQuery,
  insertRefreshToken,
  insertSession,
  revokeSession,
  revokeUserSessions,
  useRefreshToken,
} from './auth.repository';
import type { PasswordHasher } from './password-hasher';
import type { RememberedBrowser, SecondFactorService } from './second-factor.service';
import { BACKOFF_RULES, THROTTLE_RULES, type Throttle } from './throttle';
import { findUserByEmail, findUserById, updateUser } from './users.repository';
import type { UserRow } from './users.table';

/** A refresh token to put in the cookie; persistent cookies outlive the browser session. */
export type IssuedRefreshToken = { token: string; persistent: boolean; maxAgeSeconds: number };

export type SignedIn = { user: UserRow; access: string; refresh: IssuedRefreshToken };

/** "Remember me" keeps a session for 30 days; otherwise it ends after 12 hours without use. */
const PERSISTENT_SESSION_SECONDS = 30 * 24 * 60 * 60;
const BROWSER_SESSION_IDLE_SECONDS = 12 * 60 * 60;

function sessionSeconds(persistent: boolean): number {
  return persistent ? PERSISTENT_SESSION_SECONDS : BROWSER_SESSION_IDLE_SECONDS;
}

export type AuthServiceDeps = {
  db: Database;
  hasher: PasswordHasher;
  accessTokens: AccessTokens;
  accountMail: AccountMail;
  throttle: Throttle;
  logs: LogsService;
  secondFactor: Pick<SecondFactorService, 'methodsFor' | 'challenge' | 'pass'>;
  /** REQUIRE_ADMIN_2FA: an administrator without a second factor reaches only its set-up. */
  requireAdminSecondFactor: boolean;
  /** Whether a farm the user belongs to requires a second factor (access), read with the session's user. */
  secondFactorRequiredByFarm: (userId: SQLWrapper) => SQL<boolean>;
  /** How long a refresh token that was just replaced still works (docs/decisions/0002-sessions.md). */
  refreshReuseGraceSeconds: number;
  /** Called after a transaction that queued mail has committed. */
  mailQueued: () => void;
  /** Called after sessions ended (a sign-out, a password set from a link): their live streams end too. */
  sessionsEnded: () => void;
};

export class AuthService {
  /** Verified against when the email is unknown, so both failures take the same time. */
  private decoyHash: Promise<string> | undefined;

  private readonly findSessionUser: ReturnType<typeof prepareSessionUserQuery>;

  constructor(private readonly deps: AuthServiceDeps) {
    this.findSessionUser = prepareSessionUserQuery(deps.db, deps.secondFactorRequiredByFarm);
  }

  /**
   * Signs in. Failures make the next try wait, per account and address, per account and per
   * address (docs/operations.md); a try during a wait is refused before the password is checked.
   * An address that has not failed for the account is never held back by the account's failures
   * from elsewhere, so a guesser cannot lock the user out. A right password of an account with a
   * second factor, from a browser it does not remember, is answered with a challenge instead of a
   * session (signInWithSecondFactor).
   */
  async login(
    body: LoginBody,
    client: ClientInfo,
    rememberedBrowser: string | undefined,
  ): Promise<SignedIn | SecondFactorChallenge> {
    const { throttle, hasher } = this.deps;
    const pairKey = `${body.email} ${client.ip}`;
    const address = await throttle.backoff(BACKOFF_RULES.loginPerAddress, client.ip);
    const pair = await throttle.backoff(BACKOFF_RULES.loginPerPair, pairKey);
    const account = pair.failures > 0 ? await throttle.backoff(BACKOFF_RULES.loginPerAccount, body.email) : undefined;
    throttle.assertWaited(address.waitMs, pair.waitMs, account?.waitMs ?? 0);
    const user = await findUserByEmail(this.deps.db, body.email);
    const storedHash = user?.passwordHash ?? (await this.decoy());
    const passwordMatches = await hasher.verify(storedHash, body.password);
    if (!user?.passwordHash || !passwordMatches) {
      await throttle.record(BACKOFF_RULES.loginPerAddress, client.ip);
      await throttle.record(BACKOFF_RULES.loginPerPair, pairKey);
      await throttle.record(BACKOFF_RULES.loginPerAccount, body.email);
      throw new AppError('invalid_credentials');
    }
    await throttle.clear(BACKOFF_RULES.loginPerPair, pairKey);
    await throttle.clear(BACKOFF_RULES.loginPerAccount, body.email);
    const { secondFactor } = this.deps;
    const methods = await secondFactor.methodsFor(user.id, rememberedBrowser);
    if (methods.length > 0) return secondFactor.challenge(user.id, body.remember, methods);
    return this.startSession(user, body.remember, client);
  }

  /** The second step of a sign-in (docs/two-factor.md): its session, and the browser to remember if asked. */
  async signInWithSecondFactor(
    body: SecondFactorSignInBody,
    client: ClientInfo,
  ): Promise<SignedIn & { remember?: RememberedBrowser }> {
    const passed = await this.deps.secondFactor.pass(body, client);
    const signedIn = await this.startSession(passed.user, passed.persistent, client);
    return { ...signedIn, ...(passed.remember ? { remember: passed.remember } : {}) };
  }

  /**
   * Swaps a refresh token for a new one and a new access token. A token replaced within the grace
   * window (two tabs or a retried request sending the same cookie at once) gets a new pair too;
   * one replayed later ends its session, as only a copy of a stolen cookie would come back then.
   */
  async refresh(token: string | undefined): Promise<SignedIn> {
    if (!token) throw new AppError('unauthorized');
    const { db, refreshReuseGraceSeconds } = this.deps;
    const tokenHash = hashToken(token);
    const found = await findRefreshToken(db, tokenHash, refreshReuseGraceSeconds);
    if (!found || !isLive(found.session)) throw new AppError('unauthorized');
    const { session } = found;
    const usedNow = !found.token.usedAt && (await useRefreshToken(db, tokenHash));
    // A concurrent refresh may have used the token since it was read: look again before calling it a replay.
    const usedJustBefore =
      !usedNow && (found.justUsed || (await findRefreshToken(db, tokenHash, refreshReuseGraceSeconds))?.justUsed);
    if (!usedNow && !usedJustBefore) {
      await revokeSession(db, session.id);
      throw new AppError('unauthorized');
    }
    const user = await findUserById(db, session.userId);
    if (!user) throw new AppError('unauthorized');
    return db.transaction(async (tx) => {
      await extendSession(tx, session.id, expiryFromNow(session.persistent));
      const refresh = await this.issueRefreshToken(tx, session.id, session.persistent);
      const access = await this.deps.accessTokens.issue({ userId: user.id, sessionId: session.id });
      return { user, access, refresh };
    });
  }

  /** Ends the session of the refresh cookie, and of the access token when one is given. */
  async logout(refreshToken: string | undefined, sessionId: string | undefined): Promise<void> {
    if (sessionId) await revokeSession(this.deps.db, sessionId);
    const found = refreshToken ? await findRefreshToken(this.deps.db, hashToken(refreshToken)) : undefined;
    if (found) await revokeSession(this.deps.db, found.session.id);
    this.deps.sessionsEnded();
  }

  /** The signed-in user behind a bearer token, or null when the token or its session is not valid. */
  async authenticate(accessToken: string): Promise<Authenticated | null> {
    const claims = await this.deps.accessTokens.verify(accessToken);
    if (!claims) return null;
    const found = await this.findSessionUser(claims.sessionId, claims.userId);
    if (!found) return null;
    const { secondFactorOn, secondFactorRequiredByFarm, ...user } = found;
    const required = (this.deps.requireAdminSecondFactor && user.admin) || secondFactorRequiredByFarm;
    const secondFactorDue = required && !secondFactorOn;
    return { user, sessionId: claims.sessionId, secondFactorDue };
  }

  /** Sets a password from an activation or reset link; every existing session of the user ends. */
  async setPassword(body: SetPasswordBody, client: ClientInfo): Promise<void> {
    await this.setPasswordFromLink(body, client);
    this.deps.sessionsEnded();
  }

  private async setPasswordFromLink(body: SetPasswordBody, client: ClientInfo): Promise<void> {
    const newPasswordProblems = brokenPasswordRules(body.newPassword);
    const passwordHash = newPasswordProblems.length === 0 ? await this.deps.hasher.hash(body.newPassword) : null;
    await this.deps.db.transaction(async (tx) => {
      const purpose = await consumeLinkToken(tx, body.uid, hashToken(body.token));
      const user = purpose ? await findUserById(tx, body.uid) : undefined;
      if (!purpose || !user) throw new AppError('invalid_link');
      if (!passwordHash || body.newPassword !== body.repeatNewPassword) {
        throw new PasswordRejectedError({
          newPassword: newPasswordProblems,
          repeatNewPassword: body.newPassword === body.repeatNewPassword ? [] : ['mismatch'],
        });
      }
      const activating = purpose === 'activation' || user.activatedAt === null;
      await updateUser(tx, user.id, { passwordHash, ...(activating ? { activatedAt: new Date() } : {}) });
      await revokeUserSessions(tx, user.id);
      await this.deps.logs.record(tx, {
        eventType: purpose === 'activation' ? 'user_activated' : 'user_password_change',
        actorUserId: user.id,
        subjectUserId: user.id,
        event: user.email,
        details: user.email,
        ip: client.ip,
      });
    });
  }

  /** Mails a reset link when the account exists; answers the same way when it does not. */
  async requestPasswordReset(email: string, client: ClientInfo): Promise<void> {
    const { throttle, db } = this.deps;
    await throttle.assertAllowed(THROTTLE_RULES.resetPerAddress, client.ip);
    await throttle.record(THROTTLE_RULES.resetPerAddress, client.ip);
    if (await throttle.isExceeded(THROTTLE_RULES.resetPerAccount, email)) return;
    await throttle.record(THROTTLE_RULES.resetPerAccount, email);
    const user = await findUserByEmail(db, email);
    if (!user) return;
    await db.transaction(async (tx) => {
      await this.deps.accountMail.queuePasswordReset(tx, user);
      await this.deps.logs.record(tx, {
        eventType: 'user_password_reset_requested',
        actorUserId: user.id,
        subjectUserId: user.id,
        event: user.email,
        details: user.email,
        ip: client.ip,
      });
    });
    this.deps.mailQueued();
  }

  private async startSession(user: UserRow, persistent: boolean, client: ClientInfo): Promise<SignedIn> {
    return this.deps.db.transaction(async (tx) => {
      const session = await insertSession(tx, {
        userId: user.id,
        persistent,
        expiresAt: expiryFromNow(persistent),
        ip: client.ip,
        userAgent: client.userAgent,
      });
      const refresh = await this.issueRefreshToken(tx, session.id, persistent);
      const access = await this.deps.accessTokens.issue({ userId: user.id, sessionId: session.id });
      return { user, access, refresh };
    });
  }

  private async issueRefreshToken(db: Queryable, sessionId: string, persistent: boolean): Promise<IssuedRefreshToken> {
    const token = randomToken();
    await insertRefreshToken(db, sessionId, hashToken(token));
    return { token, persistent, maxAgeSeconds: sessionSeconds(persistent) };
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.deps.hasher.hash(randomToken());
    return this.decoyHash;
  }
}

function isLive(session: SessionRow): boolean {
  return session.revokedAt === null && session.expiresAt.getTime() > Date.now();
}

function expiryFromNow(persistent: boolean): Date {
  return new Date(Date.now() + sessionSeconds(persistent) * 1000);
}
