import type { Language } from '@pivot/contracts';

/** The interface languages are the account languages of the API. */
export type Locale = Language;
/**
 * The contract's languages (LanguageSchema's options; locales.test.ts keeps the two the same),
 * written out so that the first paint needs no zod.
 */
export const LOCALES: readonly Locale[] = ['pl', 'en'];
/** Polish paths carry no prefix; every other locale's paths start with /{code}. */
export const DEFAULT_LOCALE: Locale = 'pl';

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}
