import { type Language, LanguageSchema } from '@pivot/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/**
 * Who may call a route: anyone; a signed-in user; an administrator; or `enrolling`, a signed-in
 * user even one who must still set up a second factor (REQUIRE_ADMIN_2FA): the account and its
 * second factor's set-up, all such a user may reach.
 */
export type Access = 'public' | 'user' | 'admin' | 'enrolling';

/** The signed-in account as every module sees it: who acts, and in which language to answer. */
export type SignedInUser = { id: number; email: string; admin: boolean; language: Language };
export type Authenticated = {
  user: SignedInUser;
  sessionId: string;
  /** An administrator who must sign in with a second factor and has none yet (docs/two-factor.md). */
  secondFactorDue: boolean;
};

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

/** The cookie the web app keeps the chosen locale in (docs/product.md#states). */
export const LOCALE_COOKIE = 'locale';

/** The signed-in caller; routes that are not public are only reached with one. */
export function signedIn(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new AppError('unauthorized');
  return request.auth;
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/**
 * The first language of an Accept-Language header that the server speaks ('en-GB' counts as
 * 'en'), by the header's order of preference; null when it names none.
 */
function acceptedLanguage(header: string | undefined): Language | null {
  const ranked = (header ?? '')
    .split(',')
    .map((part, position) => {
      const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
      const quality = params.find((param) => param.startsWith('q='));
      return { code: tag.slice(0, 2).toLowerCase(), weight: quality ? Number(quality.slice(2)) : 1, position };
    })
    .filter((choice) => choice.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.position - b.position);
  for (const { code } of ranked) {
    const language = LanguageSchema.safeParse(code);
    if (language.success) return language.data;
  }
  return null;
}

/** The language of an address without a language prefix (`/login`, not `/en/login`), and of an answer when nothing names one. */
export const DEFAULT_LANGUAGE: Language = 'pl';

/**
 * The language a page arrives in for a visitor, as the web app decides it
 * (apps/web/src/i18n/locale-detection.ts): the language cookie they chose, else their browser's
 * first language the app speaks, else the default.
 */
export function visitorLanguage(request: FastifyRequest): Language {
  const fromCookie = LanguageSchema.safeParse(request.cookies[LOCALE_COOKIE]);
  if (fromCookie.success) return fromCookie.data;
  return acceptedLanguage(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
}

/**
 * The language to answer in: the page's (the web app sends the language it shows as
 * Accept-Language), else the signed-in user's own, else the locale cookie, else Polish. Mail
 * does not ask this: it goes out in the account's language.
 */
export function requestLanguage(request: FastifyRequest): Language {
  const fromHeader = acceptedLanguage(request.headers['accept-language']);
  if (fromHeader) return fromHeader;
  if (request.auth) return request.auth.user.language;
  const fromCookie = LanguageSchema.safeParse(request.cookies[LOCALE_COOKIE]);
  return fromCookie.success ? fromCookie.data : DEFAULT_LANGUAGE;
}

/** The token of an `Authorization: Bearer …` header: a user's access token, or the broker's shared secret. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}
