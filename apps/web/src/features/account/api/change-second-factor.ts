import {
  type MessageResponse,
  type RecoveryCodes,
  type SecondFactorSetup,
  SecondFactorConfirmBodySchema,
  type ErrorCode,
  secondFactorEndpoints,
} from '@pivot/contracts';
import { requestEndpoint } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useAction } from '@/lib/use-action';
import { secondFactorKeys } from './get-second-factor-status';
import { type PasswordCallResult, sendWithPassword } from './second-factor-password-call';

/** After a change, the card reads the status again. */
const readStatusAgain = () => queryClient.invalidateQueries({ queryKey: secondFactorKeys.status });

/** A new secret for an authenticator app (not in force until `confirmSecondFactor`). */
export function startSecondFactor(password: string): Promise<PasswordCallResult<SecondFactorSetup>> {
  return sendWithPassword(secondFactorEndpoints.setup, password);
}

export type ConfirmResult = { ok: true; codes: RecoveryCodes } | { ok: false; wrongCode: boolean };

/** Turns two-step sign-in on with a code from the app just set up; answers the recovery codes, once. */
export async function confirmSecondFactor(code: string): Promise<ConfirmResult> {
  const wrongCode = (errorCode: ErrorCode | undefined) => errorCode === 'second_factor_incorrect';
  const result = await requestEndpoint(secondFactorEndpoints.confirm, {
    body: SecondFactorConfirmBodySchema.parse({ code }),
    handlesFailure: (failure) => wrongCode(failure.error?.code),
  });
  if (!result.ok) return { ok: false, wrongCode: wrongCode(result.failure.error?.code) };
  await readStatusAgain();
  return { ok: true, codes: result.data };
}

/** Turns two-step sign-in off (the server forgets the browsers it remembered). */
export async function turnOffSecondFactor(password: string): Promise<PasswordCallResult<MessageResponse>> {
  const result = await sendWithPassword(secondFactorEndpoints.disable, password);
  if (result.ok) await readStatusAgain();
  return result;
}

/** A new set of recovery codes; the ones before stop working. */
export async function renewRecoveryCodes(password: string): Promise<PasswordCallResult<RecoveryCodes>> {
  const result = await sendWithPassword(secondFactorEndpoints.recoveryCodes, password);
  if (result.ok) await readStatusAgain();
  return result;
}

export const useStartSecondFactor = () => useAction(startSecondFactor);
export const useConfirmSecondFactor = () => useAction(confirmSecondFactor);
export const useTurnOffSecondFactor = () => useAction(turnOffSecondFactor);
export const useRenewRecoveryCodes = () => useAction(renewRecoveryCodes);
