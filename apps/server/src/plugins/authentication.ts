import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import type { AuthService } from '../modules/auth/auth.service';

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Resolves the bearer token of every request and enforces each route's `access` setting.
 * Routes are closed by default: only those that declare `access: 'public'` skip sign-in.
 */
export const authenticationPlugin = fp(async (app: FastifyInstance, options: { auth: AuthService }) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access ?? 'user';
    const token = bearerToken(request.headers.authorization);
    request.auth = token ? await options.auth.authenticate(token) : null;
    if (access === 'public') return;
    if (!request.auth) throw new AppError('unauthorized');
    if (access === 'admin' && !request.auth.user.admin) throw new AppError('forbidden');
  });
});
