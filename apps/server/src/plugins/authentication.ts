import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { type Authenticated, bearerToken } from '../http/request-context';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who a bearer token belongs to, or null when it is not valid; the users module provides it. */
    identify: (accessToken: string) => Promise<Authenticated | null>;
  }
}

/**
 * Resolves the bearer token of every request to a route registered after this plugin (the
 * API's), and enforces each route's `access` setting. Routes are closed by default: only those
 * that declare `access: 'public'` skip sign-in. The web app's files and the API docs are
 * registered before it and stay open. An administrator who must use a second factor and has
 * none reaches only the routes of `access: 'enrolling'` (docs/two-factor.md).
 */
export const authenticationPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('auth', null);
    app.addHook('onRoute', (route) => {
      const access = route.config?.access ?? 'user';
      const authenticate = async (request: FastifyRequest) => {
        const token = bearerToken(request.headers.authorization);
        request.auth = token ? await app.identify(token) : null;
        if (access === 'public') return;
        if (!request.auth) throw new AppError('unauthorized');
        if (request.auth.secondFactorDue && access !== 'enrolling') throw new AppError('second_factor_required');
        if (access === 'admin' && !request.auth.user.admin) throw new AppError('forbidden');
      };
      const own = route.onRequest ?? [];
      route.onRequest = [...(Array.isArray(own) ? own : [own]), authenticate as onRequestHookHandler];
    });
    app.addHook('onReady', async () => {
      if (!app.hasDecorator('identify')) throw new Error('no module tells who a bearer token belongs to');
    });
  },
  { name: 'authentication', dependencies: ['database'] },
);
