import type { LoginBody, LoginBodySchema, LoginResponse } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { loadSessionSchemas } from '@/lib/load-session-schemas';
import { session } from '@/lib/session';
import { useAction } from '@/lib/use-action';

export type LoginInput = z.input<typeof LoginBodySchema>;

/** Signs in and stores the user and the access token; false when refused (its toast is shown). */
export async function login(input: LoginInput): Promise<LoginResponse | false> {
  // The schemas (and zod) come with the first sign-in, not with the login page's first paint.
  const schemas = await loadSessionSchemas();
  const body: LoginBody = schemas.LoginBodySchema.parse(input);
  const signedIn = await callEndpoint(schemas.loginEndpoint, { body });
  if (signedIn) session.signIn(signedIn.user, signedIn.access);
  return signedIn;
}

export function useLogin() {
  return useAction(login);
}
