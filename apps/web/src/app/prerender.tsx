import { prerender } from 'react-dom/static';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter } from 'react-router';
import { LOCALES, type Locale } from '@/config/locales';
import { localize, paths } from '@/config/paths';
import { activateLocale, i18n } from '@/i18n/i18n';
import { SessionGate } from './app';

/**
 * The pages whose HTML the build renders (prerender/vite-plugin.ts): those shown without a
 * session, in each language, so that their first paint waits for no script. main.tsx hydrates
 * that HTML once the screen's code has come.
 */
export const PRERENDERED_PAGES: readonly { locale: Locale; path: string }[] = LOCALES.flatMap((locale) =>
  [paths.login.link(), paths.forgot.link()].map((link) => ({ locale, path: localize(locale, link) })),
);

/**
 * What the app renders into #root at `path` for a visitor not signed in, once its lazy screens have
 * come: main.tsx hydrates it, so it is what the app's first render shows for a first visit (the
 * stores' first-visit values, the fields disabled until then: ui/form/live-fields.tsx).
 */
export async function renderPage(locale: Locale, path: string): Promise<string> {
  await activateLocale(locale);
  const { prelude } = await prerender(
    <I18nextProvider i18n={i18n}>
      <StaticRouter location={path}>
        <SessionGate />
      </StaticRouter>
    </I18nextProvider>,
  );
  return new Response(prelude).text();
}
