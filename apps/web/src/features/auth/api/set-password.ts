import { type SetPasswordBody, SetPasswordBodySchema, sessionEndpoints } from '@pivot/contracts';
import { type PasswordCallOutcome, sendPasswordCall } from '@/lib/password-errors';
import { useAction } from '@/lib/use-action';

export const setPasswordInputSchema = SetPasswordBodySchema;

/** Sets the password from an emailed link (activation or reset). */
export function setPassword(input: SetPasswordBody): Promise<PasswordCallOutcome> {
  return sendPasswordCall(sessionEndpoints.setPassword, setPasswordInputSchema.parse(input));
}

export function useSetPassword() {
  return useAction(setPassword);
}
