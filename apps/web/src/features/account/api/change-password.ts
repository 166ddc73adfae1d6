import { type ChangePasswordBody, ChangePasswordBodySchema, usersEndpoints } from '@pivot/contracts';
import { type PasswordCallOutcome, sendPasswordCall } from '@/lib/password-errors';
import { useAction } from '@/lib/use-action';

export const changePasswordInputSchema = ChangePasswordBodySchema;

/** Changes the password; the server asks for the current one and ends the other sessions. */
export function changePassword(input: ChangePasswordBody): Promise<PasswordCallOutcome> {
  return sendPasswordCall(usersEndpoints.changePassword, changePasswordInputSchema.parse(input));
}

export function useChangePassword() {
  return useAction(changePassword);
}
