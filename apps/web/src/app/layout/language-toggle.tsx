import { useTranslation } from 'react-i18next';
import { useHydrated } from '@/config/create-store';
import { LOCALES, type Locale } from '@/config/locales';
import { useLocale } from '@/i18n/use-locale';
import { useSwitchLocale } from '@/i18n/use-switch-locale';
import { useSession } from '@/lib/session';

/**
 * PL | EN: moves to the page in the other language and, when signed in, saves it on the account.
 * On a page rendered at build time it waits for the app to run it, as the colour mode does.
 */
export function LanguageToggle() {
  const { t } = useTranslation();
  const current = useLocale();
  const switchLocale = useSwitchLocale();
  const session = useSession();
  const hydrated = useHydrated();

  const choose = async (locale: Locale) => {
    if (locale === current) return;
    await switchLocale(locale);
    if (session.status !== 'signed-in' || session.user.language === locale) return;
    // Saved on the account with the account's code, fetched when the language is first switched.
    const { updateAccount } = await import('@/features/account/api/update-account');
    await updateAccount({ language: locale });
  };

  return (
    <div role="group" aria-label={t('header.language')} className="inline-flex rounded-md border border-line p-0.5">
      {LOCALES.map((locale) => (
        <button
          key={locale}
          type="button"
          disabled={!hydrated}
          lang={locale}
          aria-pressed={locale === current}
          // The visible code starts the name (WCAG 2.5.3, label in name): "PL – Polski".
          aria-label={`${locale.toUpperCase()} – ${t(`language.${locale}`)}`}
          onClick={() => void choose(locale)}
          className="h-8 min-w-9 rounded px-1.5 text-xs font-bold tracking-wide aria-pressed:bg-primary aria-pressed:text-on-primary"
        >
          {locale.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
