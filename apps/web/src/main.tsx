import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { showApiFailuresAsToasts } from './app/api-failure-toasts';
import { App } from './app/app';
import { applyBrand } from './app/brand';
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
const preferred = detectLocale();
const arrivalLocale = locale === DEFAULT_LOCALE ? preferred : locale;
if (arrivalLocale !== locale) {
  history.replaceState(null, '', `${localize(arrivalLocale, path)}${location.search}${location.hash}`);
}
// The session, the screen's code and data and the catalogue are fetched side by side; the
// loader's caption is translated, so the catalogue comes before the first paint.
void restoreSession();
void preloadScreen(location.pathname, location.search);
await activateLocale(arrivalLocale);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
