import { DEFAULT_LOCALE, LOCALES, type Locale, isLocale } from '@/config/locales';
import { readCookie, writeCookie } from '@/lib/cookies';

/** The server reads the same cookie to answer in the user's language before they sign in. */
export const LOCALE_COOKIE = 'locale';
const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The browser's first preferred language that the app speaks ('en-GB' counts as 'en'). */
function browserLocale(languages: readonly string[]): Locale | null {
  for (const language of languages) {
    const code = language.slice(0, 2).toLowerCase();
    if (LOCALES.includes(code as Locale)) return code as Locale;
  }
  return null;
}

/** docs/product.md#states: the cookie, then the browser's language, then the default. */
export function detectLocale(languages: readonly string[] = navigator.languages): Locale {
  const fromCookie = readCookie(LOCALE_COOKIE);
  if (isLocale(fromCookie)) return fromCookie;
  return browserLocale(languages) ?? DEFAULT_LOCALE;
}

export function rememberLocale(locale: Locale): void {
  writeCookie(LOCALE_COOKIE, locale, { maxAgeSeconds: LOCALE_COOKIE_MAX_AGE_SECONDS });
}
