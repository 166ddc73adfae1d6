import { useTranslation } from 'react-i18next';
import { type Locale, isLocale, DEFAULT_LOCALE } from '@/config/locales';
import { localize } from '@/config/paths';

/** The locale the page is shown in (the route's prefix decides it). */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** Turns an unprefixed link from config/paths into one in the page's locale. */
export function useLocalize(): (link: string) => string {
  const locale = useLocale();
  return (link) => localize(locale, link);
}
