import { secondFactorEndpoints, sessionEndpoints } from '@pivot/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../http/endpoint-route';
import { clientInfo, requestLanguage } from '../../http/request-context';
import { presentUser } from './users.presenter';
import type { AuthService, IssuedRefreshToken } from './auth.service';

export const REFRESH_COOKIE = 'refresh_token';
/** The refresh cookie goes only to the calls that use it. */
const REFRESH_COOKIE_PATH = '/api/user/';
/** A browser its user chose to remember at the second step: sent only with the two sign-in calls. */
export const REMEMBERED_BROWSER_COOKIE = 'remembered_browser';
const REMEMBERED_BROWSER_COOKIE_PATH = '/api/user/login/';

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

  const session = { access: 'public' } as const;
  endpointRoute(app, sessionEndpoints.login, session, async (request, reply) => {
    const answer = await auth.login(request.body, clientInfo(request), request.cookies[REMEMBERED_BROWSER_COOKIE]);
    if ('secondFactor' in answer) return answer;
    setRefreshCookie(reply, answer.refresh);
    return { user: presentUser(answer.user), access: answer.access };
  });

  endpointRoute(app, secondFactorEndpoints.signIn, session, async (request, reply) => {
    const signedIn = await auth.signInWithSecondFactor(request.body, clientInfo(request));
    setRefreshCookie(reply, signedIn.refresh);
    if (signedIn.remember) {
      reply.setCookie(REMEMBERED_BROWSER_COOKIE, signedIn.remember.token, {
        path: REMEMBERED_BROWSER_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies,
        maxAge: signedIn.remember.maxAgeSeconds,
      });
    }
    return { user: presentUser(signedIn.user), access: signedIn.access };
  });

  endpointRoute(app, sessionEndpoints.refresh, session, async (request, reply) => {
    try {
      const refreshed = await auth.refresh(request.cookies[REFRESH_COOKIE]);
      setRefreshCookie(reply, refreshed.refresh);
      return { access: refreshed.access };
    } catch (error) {
      reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
      throw error;
    }
  });

  endpointRoute(app, sessionEndpoints.logout, session, async (request, reply) => {
    await auth.logout(request.cookies[REFRESH_COOKIE], request.auth?.sessionId);
    reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
    return { message: 'Signed out' };
  });

  endpointRoute(app, sessionEndpoints.setPassword, session, async (request) => {
    await auth.setPassword(request.body, clientInfo(request));
    return { message: PASSWORD_SET_MESSAGE[requestLanguage(request)] };
  });

  endpointRoute(app, sessionEndpoints.passwordEmail, session, async (request) => {
    await auth.requestPasswordReset(request.body.email, clientInfo(request));
    return { message: NEUTRAL_RESET_MESSAGE[requestLanguage(request)] };
  });
};
