import { type Language, LanguageSchema } from '@pivot/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

export type Access = 'public' | 'user' | 'admin';

/** The signed-in account as every module sees it: who acts, and in which language to answer. */
export type SignedInUser = { id: number; email: string; admin: boolean; language: Language };
export type Authenticated = { user: SignedInUser; sessionId: string };

/** Where a request comes from, as the activity log and the sessions record it. */
export type ClientInfo = { ip: string; userAgent: string | null };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; routes without it need a signed-in user. */
    access?: Access;
    /**
     * False for a route that servers call, not browsers (the broker's questions): it carries no
     * cookie to forge, and proves itself with a shared secret instead.
     */
    csrf?: false;
    /** Retrying it with the same Idempotency-Key gives the first answer instead of acting again. */
    idempotent?: true;
  }
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}

/** The cookie the web app keeps the chosen locale in (spec §4). */
export const LOCALE_COOKIE = 'locale';

/** The signed-in caller; routes that are not public are only reached with one. */
export function signedIn(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new AppError('unauthorized');
  return request.auth;
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/** The language to answer in: the user's own, else the locale cookie, else the browser's, else Polish. */
export function requestLanguage(request: FastifyRequest): Language {
  if (request.auth) return request.auth.user.language;
  const fromCookie = LanguageSchema.safeParse(request.cookies[LOCALE_COOKIE]);
  if (fromCookie.success) return fromCookie.data;
  const preferred = request.headers['accept-language']?.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return preferred === 'en' ? 'en' : 'pl';
}

/** The token of an `Authorization: Bearer …` header: a user's access token, or the broker's shared secret. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}
