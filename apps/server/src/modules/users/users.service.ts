import {
  type ChangePasswordBody,
  type CreateUserBody,
  type UpdateSelfBody,
  type UpdateUserBody,
  type User,
  type UserListQuery,
  brokenPasswordRules,
} from '@pivot/contracts';
import type { SQLWrapper } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { AppError, PasswordRejectedError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { LogsService } from '../logs';
import type { AccountMail } from './account-mail';
import { revokeUserSessions } from './auth.repository';
import type { PasswordHasher } from './password-hasher';
import { currentPasswordMatches } from './current-password';
import type { Throttle } from './throttle';
import { presentUser } from './users.presenter';
import {
  countAdmins,
  deleteUser,
  findActiveAdminIds,
  findFirstAdmin,
  findUserByEmail,
  findUserById,
  findUsersByIds,
  insertUser,
  insertUserIfAbsent,
  listUsers,
  lockAdministrators,
  updateUser,
} from './users.repository';
import type { NewUserRow, UserRow } from './users.table';

export type UsersServiceDeps = {
  db: Database;
  hasher: PasswordHasher;
  accountMail: AccountMail;
  logs: LogsService;
  throttle: Throttle;
  /** Called after a transaction that queued mail has committed. */
  mailQueued: () => void;
  /** Called after a change that may end open live streams has committed (sessions ended, a user deleted or no longer an administrator). */
  streamsChanged: () => void;
};

/** Body fields as the API names them, turned into the table's columns. */
function toColumns(body: UpdateUserBody): Partial<NewUserRow> {
  return {
    firstName: body.first_name,
    lastName: body.last_name,
    company: body.company,
    email: body.email,
    phone: body.phone,
    language: body.language,
    admin: body.admin,
    subscriptionExpiryDate: body.subscription_expiry_date,
  };
}

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  /** An administrator adds a user, who gets a mail with the link to activate the account. */
  async create(actor: SignedInUser, body: CreateUserBody, client: ClientInfo): Promise<User> {
    const user = await this.deps.db.transaction(async (tx) => {
      const created = await insertUser(tx, {
        firstName: body.first_name,
        lastName: body.last_name,
        company: body.company,
        email: body.email,
        phone: body.phone,
        admin: body.admin,
        language: body.language,
        subscriptionExpiryDate: body.subscription_expiry_date,
      });
      await this.deps.accountMail.queueActivation(tx, created);
      await this.logUserEvent(tx, 'user_created', actor, created, client);
      return created;
    });
    this.deps.mailQueued();
    return presentUser(user);
  }

  updateSelf(actor: SignedInUser, body: UpdateSelfBody, client: ClientInfo): Promise<User> {
    return this.update(actor, actor.id, body, client);
  }

  /**
   * Changes any user; the last administrator cannot lose the admin flag. Changing one's own email
   * takes the current password, and a changed email is told to the old address, so that a session
   * left open somewhere cannot quietly take the account over.
   */
  async update(actor: SignedInUser, userId: number, body: UpdateUserBody, client: ClientInfo): Promise<User> {
    const before = await findUserById(this.deps.db, userId);
    if (!before) throw new AppError('user_not_found');
    const emailChanges = body.email !== undefined && body.email !== before.email;
    if (emailChanges && actor.id === userId) {
      if (body.current_password === undefined) throw new AppError('current_password_required');
      if (!(await this.currentPasswordMatches(before, body.current_password))) {
        throw new AppError('current_password_incorrect');
      }
    }
    const user = await this.deps.db.transaction(async (tx) => {
      if (body.admin === false) await this.assertNotLastAdmin(tx, userId);
      const updated = await updateUser(tx, userId, toColumns(body));
      if (!updated) throw new AppError('user_not_found');
      if (emailChanges) await this.deps.accountMail.queueEmailChangedNotice(tx, updated, before.email);
      await this.logUserEvent(tx, 'user_updated', actor, updated, client);
      return updated;
    });
    if (emailChanges) this.deps.mailQueued();
    if (body.admin === false) this.deps.streamsChanged();
    return presentUser(user);
  }

  /** Deletes an account with its sessions and grants; its log entries stay for the administrators. */
  async delete(actor: SignedInUser, userId: number, client: ClientInfo): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.assertNotLastAdmin(tx, userId);
      const user = await findUserById(tx, userId);
      if (!user) throw new AppError('user_not_found');
      await this.logUserEvent(tx, 'user_deleted', actor, user, client);
      await deleteUser(tx, userId);
    });
    this.deps.streamsChanged();
  }

  /** Checks the current password, applies the rules of docs/product.md#validation, and signs out every other session. */
  async changePassword(
    actor: SignedInUser,
    sessionId: string,
    body: ChangePasswordBody,
    client: ClientInfo,
  ): Promise<void> {
    const account = await this.account(actor);
    const currentMatches = await this.currentPasswordMatches(account, body.oldPassword);
    const newPasswordProblems = [
      ...brokenPasswordRules(body.newPassword),
      ...(currentMatches && body.newPassword === body.oldPassword ? (['unchanged'] as const) : []),
    ];
    const repeatMatches = body.newPassword === body.repeatNewPassword;
    if (!currentMatches || newPasswordProblems.length > 0 || !repeatMatches) {
      throw new PasswordRejectedError({
        oldPassword: currentMatches ? [] : ['incorrect'],
        newPassword: newPasswordProblems,
        repeatNewPassword: repeatMatches ? [] : ['mismatch'],
      });
    }
    const passwordHash = await this.deps.hasher.hash(body.newPassword);
    await this.deps.db.transaction(async (tx) => {
      await updateUser(tx, actor.id, { passwordHash });
      await revokeUserSessions(tx, actor.id, sessionId);
      await this.logUserEvent(tx, 'user_password_change', actor, account, client);
    });
    this.deps.streamsChanged();
  }

  /** The signed-in user's own account, as the API shows it. */
  async profile(actor: SignedInUser): Promise<User> {
    return presentUser(await this.account(actor));
  }

  /** A page of users for the administrators' list, optionally without those in `excluding` (a subquery of ids). */
  list(query: UserListQuery, excluding?: SQLWrapper): Promise<{ count: number; rows: UserRow[] }> {
    return listUsers(this.deps.db, query, excluding);
  }

  find(db: Queryable, id: number): Promise<UserRow | undefined> {
    return findUserById(db, id);
  }

  /** The given users, by last name, first name and id. */
  findMany(db: Queryable, ids: number[]): Promise<UserRow[]> {
    return findUsersByIds(db, ids);
  }

  findByEmail(email: string, db: Queryable = this.deps.db): Promise<UserRow | undefined> {
    return findUserByEmail(db, email);
  }

  /** The administrator created first; the server's own actions (the demo fleet) are done as them. */
  /** The administrators who have activated their accounts: they see every machine. */
  activeAdminIds(db: Queryable): Promise<number[]> {
    return findActiveAdminIds(db);
  }

  findFirstAdmin(): Promise<UserRow | undefined> {
    return findFirstAdmin(this.deps.db);
  }

  /** Creates an account that can sign in at once, unless the email is taken; true when it was created. */
  async createActivated(values: Omit<NewUserRow, 'passwordHash' | 'activatedAt'>, password: string): Promise<boolean> {
    const passwordHash = await this.deps.hasher.hash(password);
    return insertUserIfAbsent(this.deps.db, { ...values, passwordHash, activatedAt: new Date() });
  }

  /**
   * An account made by accepting an invitation (docs/roles.md): activated, with the password
   * the person set, in the caller's transaction; email_taken when the address has one already.
   */
  async createInvited(
    db: Queryable,
    values: Pick<NewUserRow, 'firstName' | 'lastName' | 'email' | 'language'>,
    password: string,
  ): Promise<UserRow> {
    const passwordHash = await this.deps.hasher.hash(password);
    return insertUser(db, { ...values, passwordHash, activatedAt: new Date() });
  }

  /** Whether the password is the account's; wrong guesses make the next ones wait, as for a signed-in user. */
  passwordMatches(account: UserRow, password: string): Promise<boolean> {
    return this.currentPasswordMatches(account, password);
  }

  private async account(actor: SignedInUser): Promise<UserRow> {
    const account = await findUserById(this.deps.db, actor.id);
    if (!account) throw new AppError('unauthorized');
    return account;
  }

  private currentPasswordMatches(account: UserRow, password: string): Promise<boolean> {
    return currentPasswordMatches(this.deps, account, password);
  }

  private async assertNotLastAdmin(db: Queryable, userId: number): Promise<void> {
    await lockAdministrators(db);
    const user = await findUserById(db, userId);
    if (user?.admin && (await countAdmins(db)) <= 1) throw new AppError('last_admin');
  }

  private async logUserEvent(
    db: Queryable,
    eventType: 'user_created' | 'user_updated' | 'user_deleted' | 'user_password_change',
    actor: SignedInUser,
    subject: UserRow,
    client: ClientInfo,
  ): Promise<void> {
    await this.deps.logs.record(db, {
      eventType,
      actorUserId: actor.id,
      subjectUserId: subject.id,
      event: subject.email,
      details: actor.email,
      ip: client.ip,
    });
  }
}
