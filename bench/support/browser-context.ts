import type { Browser, BrowserContext } from 'playwright-core';
import { USER_PASSWORD } from './bench-server';
import { screenOf } from './phone';

/**
 * A fresh context (empty cache, no cookies: a first visit) in Polish, the users' language, on a
 * desktop's screen or a phone's (support/phone.ts), signed in as the user if one is given.
 */
export async function coldContext(
  browser: Browser,
  baseUrl: string,
  email?: string,
  onPhone = false,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'pl-PL', ...screenOf(onPhone) });
  // tsx compiles the benches keeping function names: a named function inside a function given to
  // evaluate or addInitScript calls esbuild's __name helper, which the page needs too.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  if (email === undefined) return context;
  // As e2e/browser/support/fixtures.ts signIn: the refresh cookie is the browser's, and the app
  // restores the session from it when the page opens.
  await context.request.get('/api/health');
  const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrf_token')?.value ?? '';
  const response = await context.request.post('/api/user/login/', {
    data: { email, password: USER_PASSWORD, remember: true },
    headers: { 'X-CSRF-Token': csrf },
  });
  if (response.status() !== 200) throw new Error(`signing in answered ${response.status()}: ${await response.text()}`);
  return context;
}
