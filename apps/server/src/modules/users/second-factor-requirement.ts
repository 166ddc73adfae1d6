import type { Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { SignedInUser } from '../../http/request-context';
import type { AccessService } from '../access';
import { hasSecondFactor } from './second-factor.repository';

/** Who must keep a second factor: an administrator under REQUIRE_ADMIN_2FA, a member of a farm that requires one. */
export type SecondFactorRequirement = {
  requireAdminSecondFactor: boolean;
  access: Pick<AccessService, 'requiresSecondFactor'>;
};

/**
 * Called in the transaction that took a second factor away (the app turned off, a passkey
 * removed): `second_factor_required`, rolling it back, when the user must keep one and has none left.
 */
export async function assertSecondFactorLeft(
  requirement: SecondFactorRequirement,
  tx: Queryable,
  actor: SignedInUser,
): Promise<void> {
  const required =
    (actor.admin && requirement.requireAdminSecondFactor) ||
    (await requirement.access.requiresSecondFactor(tx, actor.id));
  if (required && !(await hasSecondFactor(tx, actor.id))) throw new AppError('second_factor_required');
}
