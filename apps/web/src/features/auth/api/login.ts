import type { LoginBody, LoginBodySchema, LoginResponse } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { loadSessionSchemas } from '@/lib/load-session-schemas';
import { session } from '@/lib/session';
import { useAction } from '@/lib/use-action';

export type LoginInput = z.input<typeof LoginBodySchema>;

/**
 * Signs in and stores the user and the access token; false when refused (its toast is shown).
 * An account with two-step sign-in answers a challenge instead: no session yet, the second step
 * (features/auth/components/second-factor-step.tsx) sends it back with a code.
 */
export async function login(input: LoginInput): Promise<LoginResponse | false> {
  // The schemas (and zod) come with the first sign-in, not with the login page's first paint.
  const schemas = await loadSessionSchemas();
  const body: LoginBody = schemas.LoginBodySchema.parse(input);
  const answer = await callEndpoint(schemas.loginEndpoint, { body });
  if (answer && 'user' in answer) session.signIn(answer.user, answer.access);
  return answer;
}

export function useLogin() {
  return useAction(login);
}
