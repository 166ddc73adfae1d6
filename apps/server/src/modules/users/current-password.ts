import type { PasswordHasher } from './password-hasher';
import { BACKOFF_RULES, type Throttle } from './throttle';
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
