import { type Passkey, secondFactorEndpoints } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { promptNewPasskey } from '@/lib/passkey-prompt';
import { queryClient } from '@/lib/query-client';
import { type PasswordCallResult, sendWithPassword } from './second-factor-password-call';

export const passkeyKeys = {
  list: ['account', 'passkeys'] as const,
};

/** The signed-in user's passkeys: name, when added, when last used. */
export function getPasskeys(): Promise<Passkey[] | false> {
  return callEndpoint(secondFactorEndpoints.passkeys, {});
}

export function usePasskeys() {
  return useQuery(queryOptions({ queryKey: passkeyKeys.list, queryFn: getPasskeys }));
}

const readAgain = () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list });

/** A passkey added, or why not: the password's answer, or the browser's prompt closed or missing. */
export type AddPasskeyResult =
  PasswordCallResult<Passkey> | { ok: false; wrongPassword: false; prompt: 'unsupported' | 'closed' };

/**
 * Adds a passkey: the password brings the options of the browser's prompt, the prompt makes the
 * passkey, and the server keeps it under the name given (docs/two-factor.md#passkeys).
 */
export async function addPasskey(name: string, password: string): Promise<AddPasskeyResult> {
  const options = await sendWithPassword(secondFactorEndpoints.passkeyRegistrationOptions, password);
  if (!options.ok) return options;
  const prompted = await promptNewPasskey(options.data.options);
  if (!prompted.ok) return { ok: false, wrongPassword: false, prompt: prompted.reason };
  const added = await callEndpoint(secondFactorEndpoints.addPasskey, { body: { name, response: prompted.answer } });
  if (added === false) return { ok: false, wrongPassword: false };
  await readAgain();
  return { ok: true, data: added };
}

/** Removes a passkey; false once the failure's toast is shown. */
export async function removePasskey(id: number): Promise<boolean> {
  const removed = await callEndpoint(secondFactorEndpoints.removePasskey, { params: { id } });
  await readAgain();
  return removed !== false;
}
