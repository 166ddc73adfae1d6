import { type Language, LanguageSchema } from '@pivot/contracts';

/** The interface languages are the account languages of the API. */
export type Locale = Language;
export const LOCALES: readonly Locale[] = LanguageSchema.options;
/** Polish paths carry no prefix; every other locale's paths start with /{code}. */
export const DEFAULT_LOCALE: Locale = 'pl';

export function isLocale(value: unknown): value is Locale {
  return LanguageSchema.safeParse(value).success;
}
