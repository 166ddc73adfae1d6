import { type RenderResult, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import type { Locale } from './config/locales';
import { activateLocale, loadCataloguePart } from './i18n/i18n';

/** Every part of the catalogue in a locale, as the app has once the screens that need them showed. */
export async function activateWholeCatalogue(locale: Locale): Promise<void> {
  await Promise.all(
    (
      [
        'auth',
        'signedIn',
        'machines',
        'machineList',
        'machineCards',
        'programs',
        'advice',
        'admin',
        'errorCodes',
        'secondFactor',
        'calendar',
        'tables',
        'farms',
        'invitation',
        'dealers',
      ] as const
    ).map((part) => loadCataloguePart(part)),
  );
  await activateLocale(locale);
}

/** Renders a component as the app would: translated, inside a router. */
export async function renderInApp(
  element: ReactElement,
  { locale = 'en' as Locale, path = '/' } = {},
): Promise<RenderResult> {
  await activateWholeCatalogue(locale);
  return render(<MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>);
}
