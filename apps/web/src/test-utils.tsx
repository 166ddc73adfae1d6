import { type RenderResult, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import type { Locale } from './config/locales';
import { activateLocale } from './i18n/i18n';

/** Renders a component as the app would: translated, inside a router. */
export async function renderInApp(
  element: ReactElement,
  { locale = 'en' as Locale, path = '/' } = {},
): Promise<RenderResult> {
  await activateLocale(locale);
  return render(<MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>);
}
