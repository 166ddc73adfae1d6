import type { Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { PasswordHasher } from './password-hasher';
import { BACKOFF_RULES, type Throttle } from './throttle';
import { findUserById } from './users.repository';
import type { UserRow } from './users.table';

/**
 * Checks a signed-in user's current password (a new email, a new password, a change of the
 * second factor); wrong guesses make the next ones wait (docs/operations.md).
 */
export async function currentPasswordMatches(
  { throttle, hasher }: { throttle: Throttle; hasher: PasswordHasher },
  account: UserRow,
  password: string,
): Promise<boolean> {
  const rule = BACKOFF_RULES.currentPassword;
  const key = String(account.id);
  throttle.assertWaited((await throttle.backoff(rule, key)).waitMs);
  const matches = account.passwordHash !== null && (await hasher.verify(account.passwordHash, password));
  await (matches ? throttle.clear(rule, key) : throttle.record(rule, key));
  return matches;
}

/** The signed-in user's password, or `current_password_incorrect` (a change of the second factor). */
export async function assertCurrentPassword(
  deps: { db: Queryable; throttle: Throttle; hasher: PasswordHasher },
  userId: number,
  password: string,
): Promise<void> {
  const account = await findUserById(deps.db, userId);
  if (!account) throw new AppError('unauthorized');
  if (!(await currentPasswordMatches(deps, account, password))) throw new AppError('current_password_incorrect');
}
