import {
  type ChangePasswordBody,
  type CreateUserBody,
  type UpdateSelfBody,
  type UpdateUserBody,
  type User,
  type UserListQuery,
  type UserListResponse,
  brokenPasswordRules,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError, PasswordRejectedError } from '../../errors';
import type { AccountMail } from '../auth/account-mail';
import { revokeUserSessions } from '../auth/auth.repository';
import type { ClientInfo } from '../auth/auth.service';
import type { PasswordHasher } from '../auth/password-hasher';
import { insertLogEntry } from '../logs/logs.repository';
import { presentSprinklerListItem } from '../sprinklers/sprinklers.presenter';
import { sprinklersGrantedTo } from '../sprinklers/sprinklers.repository';
import { findMachineStates } from '../telemetry/telemetry.repository';
import { presentUser } from './users.presenter';
import {
  countAdmins,
  deleteUser,
  findUserById,
  insertUser,
  listUsers,
  lockAdministrators,
  updateUser,
} from './users.repository';
import type { NewUserRow, UserRow } from './users.table';

export type UsersServiceDeps = {
  db: Database;
  hasher: PasswordHasher;
  accountMail: AccountMail;
  /** Called after a transaction that queued mail has committed. */
  mailQueued: () => void;
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
  async create(actor: UserRow, body: CreateUserBody, client: ClientInfo): Promise<User> {
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
      await logUserEvent(tx, 'user_created', actor, created, client);
      return created;
    });
    this.deps.mailQueued();
    return presentUser(user);
  }

  updateSelf(actor: UserRow, body: UpdateSelfBody, client: ClientInfo): Promise<User> {
    return this.update(actor, actor.id, body, client);
  }

  /** Changes any user; the last administrator cannot lose the admin flag. */
  update(actor: UserRow, userId: number, body: UpdateUserBody, client: ClientInfo): Promise<User> {
    return this.deps.db.transaction(async (tx) => {
      if (body.admin === false) await this.assertNotLastAdmin(tx, userId);
      const updated = await updateUser(tx, userId, toColumns(body));
      if (!updated) throw new AppError('user_not_found');
      await logUserEvent(tx, 'user_updated', actor, updated, client);
      return presentUser(updated);
    });
  }

  /** Deletes an account with its sessions and grants; its log entries stay for the administrators. */
  delete(actor: UserRow, userId: number, client: ClientInfo): Promise<void> {
    return this.deps.db.transaction(async (tx) => {
      await this.assertNotLastAdmin(tx, userId);
      const user = await findUserById(tx, userId);
      if (!user) throw new AppError('user_not_found');
      await logUserEvent(tx, 'user_deleted', actor, user, client);
      await deleteUser(tx, userId);
    });
  }

  /** Checks the current password, applies the rules of spec §5, and signs out every other session. */
  async changePassword(actor: UserRow, sessionId: string, body: ChangePasswordBody, client: ClientInfo): Promise<void> {
    const currentMatches =
      actor.passwordHash !== null && (await this.deps.hasher.verify(actor.passwordHash, body.oldPassword));
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
      await logUserEvent(tx, 'user_password_change', actor, actor, client);
    });
  }

  async list(query: UserListQuery): Promise<UserListResponse> {
    const { db } = this.deps;
    const { count, rows } = await listUsers(db, query);
    const granted = await sprinklersGrantedTo(
      db,
      rows.map((row) => row.id),
    );
    const machineIds = [...granted.values()].flat().map((sprinkler) => sprinkler.internalId);
    const states = await findMachineStates(db, [...new Set(machineIds)]);
    return {
      count,
      data: rows.map((row) => ({
        user: presentUser(row),
        sprinklers: (granted.get(row.id) ?? []).map((sprinkler) =>
          presentSprinklerListItem(sprinkler, states.get(sprinkler.internalId)),
        ),
      })),
    };
  }

  private async assertNotLastAdmin(db: Queryable, userId: number): Promise<void> {
    await lockAdministrators(db);
    const user = await findUserById(db, userId);
    if (user?.admin && (await countAdmins(db)) <= 1) throw new AppError('last_admin');
  }
}

function logUserEvent(
  db: Queryable,
  eventType: 'user_created' | 'user_updated' | 'user_deleted' | 'user_password_change',
  actor: UserRow,
  subject: UserRow,
  client: ClientInfo,
): Promise<void> {
  return insertLogEntry(db, {
    eventType,
    actorUserId: actor.id,
    subjectUserId: subject.id,
    event: subject.email,
    details: actor.email,
    ip: client.ip,
  });
}
