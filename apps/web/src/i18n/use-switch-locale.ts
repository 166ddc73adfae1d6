import { useLocation, useNavigate } from 'react-router';
import type { Locale } from '@/config/locales';
import { localize, splitLocale } from '@/config/paths';

/**
 * Switching the language is a move to the same page under the other locale's path; that
 * route loads the catalogue and remembers the choice in the locale cookie.
 */
export function useSwitchLocale(): (locale: Locale) => Promise<void> {
  const navigate = useNavigate();
  const location = useLocation();
  return async (locale) => {
    const { path } = splitLocale(location.pathname);
    await navigate(`${localize(locale, path)}${location.search}${location.hash}`, { replace: true });
  };
}
