import {
  LoginBodySchema,
  LoginResponseSchema,
  MessageResponseSchema,
  PasswordEmailBodySchema,
  PasswordCallErrorSchema,
  RefreshResponseSchema,
  SetPasswordBodySchema,
} from '@pivot/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientInfo, requestLanguage } from '../../http/request-context';
import { presentUser } from './users.presenter';
import type { AuthService, IssuedRefreshToken } from './auth.service';

export const REFRESH_COOKIE = 'refresh_token';
/** The refresh cookie goes only to the calls that use it. */
const REFRESH_COOKIE_PATH = '/api/user/';

export type AuthRoutesOptions = { auth: AuthService; secureCookies: boolean };

const NEUTRAL_RESET_MESSAGE = {
  en: 'If an account with this email exists, a link to set a new password is on its way.',
  pl: 'Jeśli konto z tym adresem email istnieje, wysłaliśmy na nie link do ustawienia nowego hasła.',
} as const;

const PASSWORD_SET_MESSAGE = {
  en: 'The password is set. You can sign in now.',
  pl: 'Hasło zostało ustawione. Możesz się teraz zalogować.',
} as const;

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, secureCookies }) => {
  function setRefreshCookie(reply: FastifyReply, refresh: IssuedRefreshToken) {
    reply.setCookie(REFRESH_COOKIE, refresh.token, {
      path: REFRESH_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies,
      ...(refresh.persistent ? { maxAge: refresh.maxAgeSeconds } : {}),
    });
  }

  app.post(
    '/user/login/',
    {
      config: { access: 'public' },
      schema: { tags: ['session'], body: LoginBodySchema, response: { 200: LoginResponseSchema } },
    },
    async (request, reply) => {
      const signedIn = await auth.login(request.body, clientInfo(request));
      setRefreshCookie(reply, signedIn.refresh);
      return { user: presentUser(signedIn.user), access: signedIn.access };
    },
  );

  app.post(
    '/user/refresh-token/',
    { config: { access: 'public' }, schema: { tags: ['session'], response: { 200: RefreshResponseSchema } } },
    async (request, reply) => {
      try {
        const refreshed = await auth.refresh(request.cookies[REFRESH_COOKIE]);
        setRefreshCookie(reply, refreshed.refresh);
        return { access: refreshed.access };
      } catch (error) {
        reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
        throw error;
      }
    },
  );

  app.post(
    '/user/logout/',
    { config: { access: 'public' }, schema: { tags: ['session'], response: { 200: MessageResponseSchema } } },
    async (request, reply) => {
      await auth.logout(request.cookies[REFRESH_COOKIE], request.auth?.sessionId);
      reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
      return { message: 'Signed out' };
    },
  );

  app.post(
    '/user/set-password/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        body: SetPasswordBodySchema,
        response: { 200: MessageResponseSchema, 400: PasswordCallErrorSchema },
      },
    },
    async (request) => {
      await auth.setPassword(request.body, clientInfo(request));
      return { message: PASSWORD_SET_MESSAGE[requestLanguage(request)] };
    },
  );

  app.post(
    '/user/password-email/',
    {
      config: { access: 'public' },
      schema: { tags: ['session'], body: PasswordEmailBodySchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      await auth.requestPasswordReset(request.body.email, clientInfo(request));
      return { message: NEUTRAL_RESET_MESSAGE[requestLanguage(request)] };
    },
  );
};
