import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { randomToken, sameSecret } from '../secrets';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit CSRF protection: every answer carries a random token in a cookie the page
 * can read, and every unsafe request must repeat it in a header, which another site cannot do.
 */
export const csrfPlugin = fp(async (app: FastifyInstance, options: { secure: boolean }) => {
  app.addHook('onRequest', async (request, reply) => {
    const cookieToken = request.cookies[CSRF_COOKIE];
    if (!cookieToken) {
      reply.setCookie(CSRF_COOKIE, randomToken(), {
        path: '/',
        sameSite: 'strict',
        secure: options.secure,
        httpOnly: false,
      });
    }
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.csrf === false) return;
    const headerToken = request.headers[CSRF_HEADER];
    if (!cookieToken || typeof headerToken !== 'string' || !sameSecret(headerToken, cookieToken)) {
      throw new AppError('csrf_mismatch');
    }
  });
});
