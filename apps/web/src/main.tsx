import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { showApiFailuresAsToasts } from './app/api-failure-toasts';
import { App } from './app/app';
import { applyBrand } from './app/brand';
import { DEFAULT_BRAND, currentBrand } from './config/brands';
import { preloadScreen } from './app/routes';
import { registerServiceWorker } from './app/service-worker';
import { DEFAULT_LOCALE } from './config/locales';
import { localize, splitLocale } from './config/paths';
import { activateLocale } from './i18n/i18n';
import { detectLocale } from './i18n/locale-detection';
import { restoreSession } from './lib/restore-session';
import './styles.css';

applyBrand();
showApiFailuresAsToasts();
registerServiceWorker();

// docs/product.md#states: on arrival, a page without a locale prefix is shown in the language of the cookie
// or, failing that, of the browser; a prefixed address is an explicit choice and is kept.
const { locale, path } = splitLocale(location.pathname);
// A page rendered at build time says its language (before activateLocale sets the one shown).
const pageLocale = document.documentElement.lang;
const preferred = detectLocale();
const arrivalLocale = locale === DEFAULT_LOCALE ? preferred : locale;
if (arrivalLocale !== locale) {
  history.replaceState(null, '', `${localize(arrivalLocale, path)}${location.search}${location.hash}`);
}
// The session, the screen's code and data and the catalogue are fetched side by side; the
// loader's caption is translated, so the catalogue comes before the first paint.
void restoreSession();
const screenLoaded = preloadScreen(location.pathname, location.search);
await activateLocale(arrivalLocale);

// A login page comes from the server already painted (its HTML rendered at build time,
// app/prerender.tsx): once the screen's code has come, the app hydrates it, taking over the
// painted page without rendering it anew, when the page was made for this visit (its language,
// the default brand; the stores show a first visit's values for that first render, then their
// own: config/create-store.ts). Otherwise (a visitor sent on to their language, a partner brand's
// host) the app renders over it. Either is a transition, which React does in slices between which
// the browser answers input, where a first render is otherwise one long task: the page is shown
// already, and a phone's main thread stays free for the visitor.
const container = document.getElementById('root')!;
const prerendered = container.hasChildNodes();
if (prerendered) await screenLoaded;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
if (!prerendered) createRoot(container).render(app);
else if (pageLocale === arrivalLocale && currentBrand === DEFAULT_BRAND) {
  startTransition(() => void hydrateRoot(container, app));
} else {
  const root = createRoot(container);
  startTransition(() => root.render(app));
}
