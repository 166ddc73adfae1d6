import { type PasswordEmailBody, PasswordEmailBodySchema, sessionEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';

export const passwordEmailInputSchema = PasswordEmailBodySchema;
export type PasswordEmailInput = z.input<typeof passwordEmailInputSchema>;

/** Asks for a reset link; the answer is the same whether the account exists or not. */
export async function requestPasswordEmail(input: PasswordEmailInput): Promise<boolean> {
  const body: PasswordEmailBody = passwordEmailInputSchema.parse(input);
  return (await callEndpoint(sessionEndpoints.passwordEmail, { body })) !== false;
}

export function useRequestPasswordEmail() {
  return useAction(requestPasswordEmail);
}
