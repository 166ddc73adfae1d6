import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ErrorBody } from '@pivot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LanguageSchema } from '@pivot/contracts';
import { DEFAULT_LANGUAGE, requestLanguage, visitorLanguage } from '../http/request-context';
import { errorMessage } from '../i18n/messages';

/**
 * Vite names every file it writes to assets/ after a hash of its content (`index-ldBt-qtn.js`): a
 * new build gives a changed file a new name, so a browser may keep these for good. Everything
 * else keeps its name from build to build (index.html, the manifest, the service worker, public/
 * files) and is asked for again each time, answered 304 while unchanged (its ETag). public/ has
 * no assets/ folder, so no file of a lasting name lands among the hashed ones.
 */
const HASHED_FOLDER = 'assets';
const KEPT_FOR_GOOD = 'public, max-age=31536000, immutable';
const ASKED_AGAIN = 'no-cache';

/**
 * The pages whose HTML the web app's build rendered (apps/web/prerender/, the login pages): the
 * page at `/en/login` is `pages/en/login.html`, sent in place of index.html so that it paints
 * before any script has come. An address without a language (`/login`) is sent in the visitor's
 * language (visitorLanguage: the cookie, else the browser's), as the app would show it: an
 * English visitor gets the English page at once, not the Polish one with English painted over it
 * once the scripts have come. Only plain paths are looked up.
 */
const PRERENDERED_FOLDER = 'pages';
const PRERENDERABLE_PATH = /^(?:\/[a-z0-9-]+)+$/;

async function pageFile(distDir: string, request: FastifyRequest): Promise<string> {
  const pathname = request.url.split(/[?#]/, 1)[0]!;
  if (!PRERENDERABLE_PATH.test(pathname)) return 'index.html';
  const prefixed = LanguageSchema.safeParse(pathname.split('/')[1]).success;
  const language = prefixed ? DEFAULT_LANGUAGE : visitorLanguage(request);
  const localized = language === DEFAULT_LANGUAGE ? pathname : `/${language}${pathname}`;
  const prerendered = `${PRERENDERED_FOLDER}${localized}.html`;
  return (await isFile(path.join(distDir, prerendered))) ? prerendered : 'index.html';
}

const isFile = (file: string) =>
  stat(file).then(
    (found) => found.isFile(),
    () => false,
  );

async function sendPage(distDir: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  // The page depends on the language cookie and the browser's languages (pageFile).
  return reply
    .header('cache-control', ASKED_AGAIN)
    .header('vary', 'Cookie, Accept-Language')
    .sendFile(await pageFile(distDir, request));
}

/** A script written into the page itself: `<script>` with no attributes (the build writes no others inline). */
const INLINE_SCRIPT = /<script>([^<]*)<\/script>/g;

/**
 * The Content-Security-Policy sources of the scripts the build wrote into its pages' head (the
 * colour mode set before the first paint: apps/web/color-mode.js), by their hash, so that the
 * policy lets them and no other inline script run. Read once, at start; every page's head is
 * index.html's. None without a built web app.
 */
export function inlineScriptSources(distDir: string): string[] {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return [];
  return [...readFileSync(indexFile, 'utf8').matchAll(INLINE_SCRIPT)].map(
    ([, script]) => `'sha256-${createHash('sha256').update(script!).digest('base64')}'`,
  );
}

/**
 * Serves the built web app from the same origin as the API. Paths outside /api that match no
 * file get index.html, so the app's router handles them (and shows its own not-found page);
 * a missing file under /assets/ (a chunk of an older build, asked for by a tab opened before
 * a deploy) gets a plain 404, which the app shows as its error page; a prerendered page is sent
 * for its own address. Files are looked up on each request, so a rebuilt app is served without a
 * restart.
 */
export const webAppPlugin = fp(async (app: FastifyInstance, options: { distDir: string }) => {
  const indexFile = path.join(options.distDir, 'index.html');
  const hasWebApp = existsSync(indexFile);
  if (hasWebApp) {
    const hashedFolder = path.join(options.distDir, HASHED_FOLDER) + path.sep;
    await app.register(fastifyStatic, {
      root: options.distDir,
      wildcard: true,
      index: false,
      // The build writes each text file beside itself compressed (apps/web/precompress/): sent as
      // they are, the page's files cost no compressing while the page asks for its data.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply: FastifyReply, file: string) =>
        reply.header('cache-control', file.startsWith(hashedFolder) ? KEPT_FOR_GOOD : ASKED_AGAIN),
    });
    app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(options.distDir, request, reply));
  } else {
    app.log.warn({ distDir: options.distDir }, 'the web app is not built; serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    const isPageRequest =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      request.url !== '/api' &&
      !request.url.startsWith('/assets/');
    if (hasWebApp && isPageRequest) {
      return sendPage(options.distDir, request, reply);
    }
    const body: ErrorBody = { code: 'not_found', message: errorMessage('not_found', requestLanguage(request)) };
    return reply.status(404).send(body);
  });
});
