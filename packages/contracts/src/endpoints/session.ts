import { endpoint } from '../endpoint';
import {
  LoginBodySchema,
  LoginResponseSchema,
  MessageResponseSchema,
  PasswordEmailBodySchema,
  RefreshResponseSchema,
  SetPasswordBodySchema,
} from '../users';

/* Signing in and out, and setting a password from an emailed link: calls made without a session. */
const tag = 'session';

export const login = endpoint({
  method: 'POST',
  path: '/user/login/',
  body: LoginBodySchema,
  answer: LoginResponseSchema,
  errors: ['invalid_credentials', 'rate_limited'],
  tag,
  summary: 'Signs in: the user and an access token, and the refresh cookie',
});

export const refresh = endpoint({
  method: 'POST',
  path: '/user/refresh-token/',
  answer: RefreshResponseSchema,
  errors: ['unauthorized'],
  tag,
  summary: "A new access token for the refresh cookie's session (the cookie is renewed)",
});

export const logout = endpoint({
  method: 'POST',
  path: '/user/logout/',
  answer: MessageResponseSchema,
  errors: [],
  tag,
  summary: 'Signs out: ends the session and clears the refresh cookie',
});

export const setPassword = endpoint({
  method: 'POST',
  path: '/user/set-password/',
  body: SetPasswordBodySchema,
  answer: MessageResponseSchema,
  errors: ['password_rejected', 'invalid_link', 'rate_limited'],
  tag,
  summary: "Sets a password from an emailed link (an account's activation or a reset)",
});

export const passwordEmail = endpoint({
  method: 'POST',
  path: '/user/password-email/',
  body: PasswordEmailBodySchema,
  answer: MessageResponseSchema,
  errors: ['rate_limited'],
  tag,
  summary: 'Emails a link to set a new password; the same answer whether the account exists or not',
});
