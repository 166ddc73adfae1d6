import { type RenderResult, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { onTestFinished, vi } from 'vitest';
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

/** What a test's fake server answers to a call: its status and its JSON body (none when undefined). */
export type FakeAnswer = [status: number, body?: unknown];

/**
 * Sends the app's calls to a test's fake server instead of the network: `answer` gets each call's
 * method, path and JSON body, and its answer comes back as the server's would.
 */
export function answerFetchWith(answer: (method: string, pathname: string, body: unknown) => FakeAnswer): void {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const [status, answered] = answer(init.method ?? 'GET', pathname, body);
    return new Response(answered === undefined ? null : JSON.stringify(answered), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
}

/** Text as the bytes (an ArrayBuffer) a browser's PublicKeyCredential holds; the page sends them as base64url. */
export const credentialBytes = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer;

/**
 * The browser's WebAuthn, which jsdom lacks: `navigator.credentials` answering the passkey
 * prompts with the test's own functions, for the one test.
 */
export function stubWebAuthn(credentials: { get?: () => Promise<unknown>; create?: () => Promise<unknown> }): void {
  vi.stubGlobal('PublicKeyCredential', vi.fn());
  Object.defineProperty(navigator, 'credentials', { configurable: true, value: credentials });
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, 'credentials');
  });
}

/**
 * Catches the files the page hands the browser to save (lib/download-file.ts) instead of saving
 * them: the returned list gets each one's name, in order.
 */
export function catchSavedFiles(): string[] {
  const saved: string[] = [];
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:saved', revokeObjectURL: () => undefined }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}
