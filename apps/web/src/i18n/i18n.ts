import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@/config/locales';
import { rememberLocale } from './locale-detection';

type Catalogue = Record<string, unknown>;

/**
 * A language's catalogue comes in parts, each a chunk of its own, so a page loads only the
 * language it shows and only the texts its screens need: `base` for every page, `auth` for the
 * screens that sign a user in or set a password and the forms with a user's fields, a password or
 * a required field (the login pages, the account and administration screens), `signedIn` for
 * what only a signed-in user sees (the header's menus and alerts, the home, account and activity
 * screens), `machines` for every machine screen (the machines' own texts), `machineList` for the
 * machines' list,
 * `machineCards` for what the machine page shows after its map (the weather stations' readings
 * and days, the reports' download, the Soil water layer, which starts hidden, the questions the
 * motion buttons ask),
 * `programs` for the screens and panels that show or edit a machine's programs, `advice` for the
 * machine page's advice and crop seasons cards, `admin` for the administration screens (each
 * fetched with the code that shows it), `errorCodes` for the API's error codes, which a page
 * needs only once a call is refused (app/api-failure-toasts.ts) or with the screens and cards
 * that name a refusal in their own place: most first visits never need them; `secondFactor` for
 * the login's second step (two-step sign-in), fetched with its code once a login asks for it; `calendar` for the
 * date picker's open calendar, fetched with its code (ui/date-picker/date-picker.tsx); `tables`
 * for the screens with a table, a picker or a list that loads (the machines' list, the
 * administration, account and activity screens, the header's menus), not the machine page;
 * `farms` for the farms' screens (the list and a farm's members, grants and machines); `invitation`
 * for the page of an invitation to a farm (apart from `auth`, so that the login pages do not load
 * it); `dealers` for a dealer's fleet.
 */
export type CataloguePart =
  | 'base'
  | 'auth'
  | 'signedIn'
  | 'machines'
  | 'machineList'
  | 'machineCards'
  | 'programs'
  | 'advice'
  | 'admin'
  | 'errorCodes'
  | 'secondFactor'
  | 'calendar'
  | 'tables'
  | 'farms'
  | 'invitation'
  | 'dealers';

const catalogues: Record<Locale, Record<CataloguePart, () => Promise<{ default: Catalogue }>>> = {
  pl: {
    base: () => import('./locales/pl.json'),
    auth: () => import('./locales/pl.auth.json'),
    signedIn: () => import('./locales/pl.signed-in.json'),
    machines: () => import('./locales/pl.machines.json'),
    machineList: () => import('./locales/pl.machine-list.json'),
    machineCards: () => import('./locales/pl.machine-cards.json'),
    programs: () => import('./locales/pl.programs.json'),
    advice: () => import('./locales/pl.advice.json'),
    admin: () => import('./locales/pl.admin.json'),
    errorCodes: () => import('./locales/pl.error-codes.json'),
    secondFactor: () => import('./locales/pl.second-factor.json'),
    calendar: () => import('./locales/pl.calendar.json'),
    tables: () => import('./locales/pl.tables.json'),
    farms: () => import('./locales/pl.farms.json'),
    invitation: () => import('./locales/pl.invitation.json'),
    dealers: () => import('./locales/pl.dealers.json'),
  },
  en: {
    base: () => import('./locales/en.json'),
    auth: () => import('./locales/en.auth.json'),
    signedIn: () => import('./locales/en.signed-in.json'),
    machines: () => import('./locales/en.machines.json'),
    machineList: () => import('./locales/en.machine-list.json'),
    machineCards: () => import('./locales/en.machine-cards.json'),
    programs: () => import('./locales/en.programs.json'),
    advice: () => import('./locales/en.advice.json'),
    admin: () => import('./locales/en.admin.json'),
    errorCodes: () => import('./locales/en.error-codes.json'),
    secondFactor: () => import('./locales/en.second-factor.json'),
    calendar: () => import('./locales/en.calendar.json'),
    tables: () => import('./locales/en.tables.json'),
    farms: () => import('./locales/en.farms.json'),
    invitation: () => import('./locales/en.invitation.json'),
    dealers: () => import('./locales/en.dealers.json'),
  },
};

export const i18n = i18next.createInstance();

const ready = i18n.use(initReactI18next).init({
  resources: {},
  // docs/product.md#limits: English is the fallback; the catalogue tests keep both languages complete anyway.
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});

/** The parts the screens shown so far need: a language switched to gets them all. */
const wantedParts = new Set<CataloguePart>(['base']);
const addedParts = new Set<string>();
let activeLocale: Locale | null = null;

async function addPart(locale: Locale, part: CataloguePart): Promise<void> {
  const key = `${locale}:${part}`;
  if (addedParts.has(key)) return;
  const { default: catalogue } = await catalogues[locale][part]();
  // The parts hold different top-level keys of the one `translation` namespace.
  i18n.addResourceBundle(locale, 'translation', catalogue, true, false);
  addedParts.add(key);
}

/** Loads a locale's catalogue when needed, switches to it, and remembers it for the next visit. */
export async function activateLocale(locale: Locale): Promise<void> {
  activeLocale = locale;
  await ready;
  await Promise.all([...wantedParts].map((part) => addPart(locale, part)));
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
  rememberLocale(locale);
}

/** Fetches a part of the catalogue for the language shown (and for any language switched to later). */
export async function loadCataloguePart(part: CataloguePart): Promise<void> {
  wantedParts.add(part);
  await ready;
  if (activeLocale) await addPart(activeLocale, part);
}
