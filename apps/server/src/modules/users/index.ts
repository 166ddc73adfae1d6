import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Config, PRODUCT_NAME } from '../../config';
import { SecretBox, sealingKey } from '../../secret-box';
import { AccessTokens, InstanceTokenKeys, sharedSecretKeys } from './access-tokens';
import { ACCOUNT_LINK_SECRETS, AccountMail } from './account-mail';
import { authRoutes } from './auth.routes';
import { AuthService } from './auth.service';
import { ensureFirstAdmin } from './first-admin';
import { passkeyRoutes } from './passkeys.routes';
import { PasskeyService, relyingPartyOf } from './passkeys.service';
import { PasswordHasher } from './password-hasher';
import { secondFactorRoutes } from './second-factor.routes';
import { SecondFactorService } from './second-factor.service';
import { OpenStreams } from './open-streams';
import { SignInPurge } from './sign-in-purge';
import { Throttle } from './throttle';
import { usersRoutes } from './users.routes';
import { UsersService } from './users.service';

declare module 'fastify' {
  interface FastifyInstance {
    users: UsersService;
    /** The live event streams open on this instance, ended once no longer allowed. */
    openStreams: OpenStreams;
    /** Deletes used and expired links, ended sessions and old sign-in attempts (every ten minutes). */
    signInPurge: SignInPurge;
  }
}

export type { UsersService } from './users.service';
export type { OpenStreams } from './open-streams';
export type { UserRow } from './users.table';
export { presentAssignedUser, presentUser } from './users.presenter';

export type UsersModuleOptions = Pick<
  Config,
  | 'jwtSecret'
  | 'accessTokenTtlSeconds'
  | 'refreshReuseGraceSeconds'
  | 'publicUrl'
  | 'cookieSecure'
  | 'adminEmail'
  | 'adminPassword'
  | 'maxLiveStreams'
  | 'streamWriteTimeoutMs'
  | 'deviceSecretKey'
  | 'dataDir'
  | 'requireAdminSecondFactor'
> & {
  /** Where one-time notices (a generated admin password) are written. */
  print: (text: string) => void;
};

/**
 * Users and auth: accounts, their activation and password links, sign-in sessions with their
 * tokens, and the throttling of guesses. It tells the authentication plugin who a bearer token
 * belongs to, and makes sure there is a first administrator.
 */
export const usersModule = fp(
  async (app: FastifyInstance, options: UsersModuleOptions) => {
    const { db } = app.database;
    const { mail, logs, access } = app;
    const hasher = new PasswordHasher();
    const tokenKeys = options.jwtSecret
      ? await sharedSecretKeys(options.jwtSecret)
      : new InstanceTokenKeys({ db, ttlSeconds: options.accessTokenTtlSeconds, logger: app.log });
    await tokenKeys.start();
    app.addHook('onClose', async () => tokenKeys.stop());
    const accountMail = new AccountMail(mail, options.publicUrl, PRODUCT_NAME);
    mail.issueSecretsWith(ACCOUNT_LINK_SECRETS, (tx, linkId) => accountMail.issueToken(tx, linkId));
    const mailQueued = () => mail.wake();
    const throttle = new Throttle(db);
    const openStreams = new OpenStreams({
      db,
      access,
      logger: app.log,
      maxStreams: options.maxLiveStreams,
      writeTimeoutMs: options.streamWriteTimeoutMs,
    });
    const streamsChanged = () => openStreams.recheckSoon();
    const requirement = { requireAdminSecondFactor: options.requireAdminSecondFactor, access };
    const passkeys = new PasskeyService({
      ...requirement,
      db,
      hasher,
      throttle,
      logs,
      logger: app.log,
      relyingParty: relyingPartyOf(options.publicUrl, PRODUCT_NAME),
    });
    const secondFactor = new SecondFactorService({
      ...requirement,
      db,
      box: new SecretBox(await sealingKey(options.deviceSecretKey, options.dataDir), 'secondFactor'),
      hasher,
      throttle,
      logs,
      logger: app.log,
      passkeys,
    });
    const auth = new AuthService({
      db,
      hasher,
      accessTokens: new AccessTokens(tokenKeys, options.accessTokenTtlSeconds),
      accountMail,
      throttle,
      logs,
      secondFactor,
      requireAdminSecondFactor: options.requireAdminSecondFactor,
      secondFactorRequiredByFarm: (userId) => access.secondFactorRequiredBy(userId),
      refreshReuseGraceSeconds: options.refreshReuseGraceSeconds,
      mailQueued,
      sessionsEnded: streamsChanged,
    });
    const users = new UsersService({ db, hasher, accountMail, logs, throttle, mailQueued, streamsChanged });
    app.decorate('users', users);
    app.decorate('identify', (token: string) => auth.authenticate(token));
    app.decorate('openStreams', openStreams);
    const purge = new SignInPurge({ db, throttle, logger: app.log });
    app.decorate('signInPurge', purge);
    purge.start();
    app.addHook('onClose', async () => purge.stop());
    openStreams.start();
    app.addHook('onClose', async () => openStreams.stop());

    await app.register(authRoutes, { prefix: '/api', auth, secureCookies: options.cookieSecure });
    await app.register(usersRoutes, { prefix: '/api', users });
    await app.register(secondFactorRoutes, { prefix: '/api', secondFactor });
    await app.register(passkeyRoutes, { prefix: '/api', passkeys });

    await ensureFirstAdmin(db, hasher, {
      email: options.adminEmail,
      password: options.adminPassword,
      log: app.log,
      print: options.print,
    });
  },
  { name: 'users', dependencies: ['database', 'authentication', 'mail', 'logs', 'access'] },
);
