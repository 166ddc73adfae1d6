import { type LoginBody, LoginBodySchema, type LoginResponse, LoginResponseSchema } from '@pivot/contracts';
import type { z } from 'zod';
import { apiCall } from '@/lib/api-client';
import { session } from '@/lib/session';
import { useAction } from '@/lib/use-action';

export const loginInputSchema = LoginBodySchema;
export type LoginInput = z.input<typeof loginInputSchema>;

/** Signs in and stores the user and the access token; false when refused (its toast is shown). */
export async function login(input: LoginInput): Promise<LoginResponse | false> {
  const body: LoginBody = loginInputSchema.parse(input);
  const signedIn = await apiCall({ method: 'POST', path: '/user/login/', body, response: LoginResponseSchema });
  if (signedIn) session.signIn(signedIn.user, signedIn.access);
  return signedIn;
}

export function useLogin() {
  return useAction(login);
}
