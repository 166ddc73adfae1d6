import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ErrorBody } from '@pivot/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { requestLanguage } from '../http/request-context';
import { errorMessage } from '../i18n/messages';

/**
 * Serves the built web app from the same origin as the API. Paths outside /api that match no
 * file get index.html, so the app's router handles them (and shows its own not-found page).
 */
export const webAppPlugin = fp(async (app: FastifyInstance, options: { distDir: string }) => {
  const indexFile = path.join(options.distDir, 'index.html');
  const hasWebApp = existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, { root: options.distDir, wildcard: false, index: false });
  } else {
    app.log.warn({ distDir: options.distDir }, 'the web app is not built; serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    const isPageRequest = request.method === 'GET' && !request.url.startsWith('/api/') && request.url !== '/api';
    if (hasWebApp && isPageRequest) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const body: ErrorBody = { code: 'not_found', message: errorMessage('not_found', requestLanguage(request)) };
    return reply.status(404).send(body);
  });
});
