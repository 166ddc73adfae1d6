import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

type ContentSecurityPolicyDirectives = Record<string, string[] | null>;

/**
 * What the web app needs: its own scripts (and those its pages carry inline, by their hashes),
 * styles, worker and manifest; map tiles from any https host (VITE_MAP_TILE_URL). Helmet's defaults
 * fill in the rest, except `upgrade-insecure-requests`, which only an https page may carry (below).
 */
const DIRECTIVES: ContentSecurityPolicyDirectives = {
  'img-src': ["'self'", 'data:', 'https:'],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'upgrade-insecure-requests': null,
};

export type SecurityHeadersOptions = {
  /** The address users reach the product at: an https one means every page is served over https. */
  publicUrl: string;
  /** The scripts the web app's pages carry inline, as `'sha256-…'` sources (web-app.ts, inlineScriptSources). */
  inlineScripts: readonly string[];
};

/**
 * Helmet's security headers on every answer. Two of them only make sense on a page served over
 * https, and one breaks a page served over plain http: `upgrade-insecure-requests` makes the
 * browser fetch the page's scripts over https, which a server reached at http://<address>:<port>
 * on a farm's network does not speak, so the page stays blank. That directive and HSTS are sent
 * only when the product is served over https: PUBLIC_URL starts with https://, or the request
 * came through a trusted proxy (TRUST_PROXY) that says `X-Forwarded-Proto: https`.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const directives = { 'script-src': ["'self'", ...options.inlineScripts], ...DIRECTIVES };
    const overHttp: FastifyHelmetOptions = {
      contentSecurityPolicy: { directives },
      strictTransportSecurity: false,
    };
    const overHttps: FastifyHelmetOptions = {
      contentSecurityPolicy: { directives: { ...directives, 'upgrade-insecure-requests': [] } },
      strictTransportSecurity: { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true },
    };
    const alwaysHttps = options.publicUrl.startsWith('https://');
    const servedOverHttps = (request: FastifyRequest) => alwaysHttps || request.protocol === 'https';
    // Not global: the hook below chooses the headers per request, through the reply's helmet().
    await app.register(helmet, { ...overHttp, global: false });
    app.addHook('onRequest', async (request, reply) => {
      reply.helmet(servedOverHttps(request) ? overHttps : overHttp);
    });
  },
  { name: 'security-headers' },
);
