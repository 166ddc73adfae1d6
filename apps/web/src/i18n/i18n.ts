import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@/config/locales';
import { rememberLocale } from './locale-detection';

type Catalogue = Record<string, unknown>;

/** Each catalogue is its own chunk, so a page loads only the language it shows. */
const catalogues: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  pl: () => import('./locales/pl.json'),
  en: () => import('./locales/en.json'),
};

export const i18n = i18next.createInstance();

const ready = i18n.use(initReactI18next).init({
  resources: {},
  // Spec §9: English is the fallback; the catalogue tests keep both languages complete anyway.
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});

/** Loads a locale's catalogue when needed, switches to it, and remembers it for the next visit. */
export async function activateLocale(locale: Locale): Promise<void> {
  await ready;
  if (!i18n.hasResourceBundle(locale, 'translation')) {
    const { default: catalogue } = await catalogues[locale]();
    i18n.addResourceBundle(locale, 'translation', catalogue);
  }
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
  rememberLocale(locale);
}
