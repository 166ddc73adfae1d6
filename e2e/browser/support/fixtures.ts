import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import { type Browser, type Page, test as base, expect } from '@playwright/test';
import { HttpSession } from '../../support/http-session';
import { mailedLinkPath, waitForMail } from '../../support/outbox';
import { ADMIN, serverFromEnvironment } from './environment';

export { expect };

export type TestUser = { id: number; email: string; password: string; firstName: string; lastName: string };

export type NewUser = { firstName?: string; lastName?: string; language?: 'pl' | 'en'; admin?: boolean };

type Server = { baseUrl: string; dataDir: string };

/** A password that meets every rule of docs/product.md#validation. */
export const GOOD_PASSWORD = 'Corn-field-2026!';

let userCount = 0;

/** An address no other test of this run uses. */
export function uniqueEmail(name = 'farmer'): string {
  userCount += 1;
  return `${name}-${Date.now().toString(36)}-${userCount}@farm.test`;
}

/** Creates a user as the administrator and activates it from the mailed link, all over the API. */
async function createUser(admin: HttpSession, server: Server, options: NewUser = {}): Promise<TestUser> {
  const email = uniqueEmail();
  const firstName = options.firstName ?? 'Jan';
  const lastName = options.lastName ?? 'Kowalski';
  const created = await admin.call('POST', '/api/user/', {
    first_name: firstName,
    last_name: lastName,
    email,
    language: options.language ?? 'pl',
    admin: options.admin ?? false,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = (created.body as { id: number }).id;
  const link = mailedLinkPath(await waitForMail(server.dataDir, email, '/activation/'), 'activation');
  const token = link.split('/').at(-1);
  const activated = await new HttpSession(server.baseUrl).call('POST', '/api/user/set-password/', {
    uid: id,
    token,
    newPassword: GOOD_PASSWORD,
    repeatNewPassword: GOOD_PASSWORD,
  });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  return { id, email, password: GOOD_PASSWORD, firstName, lastName };
}

/**
 * Signs in through the API inside the page's browser context (so the refresh cookie is the
 * browser's), then opens a page: the app restores the session from that cookie.
 */
export async function signIn(page: Page, user: { email: string; password: string }, path = '/'): Promise<void> {
  await page.request.get('/api/health');
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'csrf_token')?.value ?? '';
  const response = await page.request.post('/api/user/login/', {
    data: { email: user.email, password: user.password, remember: true },
    headers: { 'X-CSRF-Token': csrf },
  });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto(path);
}

/** Signs out from the account page's button, as a user does. */
export async function signOut(page: Page): Promise<void> {
  await page.goto('/dashboard/account');
  await page.getByRole('button', { name: 'Wyloguj się' }).click();
  await page.getByRole('dialog', { name: 'Wylogować się?' }).getByRole('button', { name: 'Wyloguj' }).click();
  await expect(page).toHaveURL('/login');
}

/** The login form's first step: email and password. */
export async function enterPassword(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Hasło', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
}

/** A browser of the person's own (their own cookies and session), signed in at a path, in Polish. */
export async function signedInPage(
  browser: Browser,
  baseURL: string,
  user: { email: string; password: string },
  path: string,
): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'pl-PL', serviceWorkers: 'block' });
  const page = await context.newPage();
  await signIn(page, user, path);
  return page;
}

/** A toast with this text: a success is a status, a warning or an error an alert. */
export const toastWith = (page: Page, text: string, role: 'status' | 'alert' = 'status') =>
  page.getByRole(role).filter({ hasText: text });

/** Moves to another path the way a link in the app does, without reloading the page. */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
type WithAxe = { axe?: typeof axe };

/**
 * No serious or critical accessibility violation on the page as it is now, by axe-core run in the
 * page, injected once a document: @axe-core/playwright injects its 580 KB anew at every check and
 * opens a blank page to merge the frames' results (the app has no frames), which took twice as
 * long as the check itself, half a minute of each every-screen run.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async () => (await (window as WithAxe).axe!.run(document, { resultTypes: ['violations'] })).violations,
  );
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(serious, `${what}: accessibility`).toEqual([]);
}

type Fixtures = {
  /** Creates an activated user (language Polish, not an administrator, unless told otherwise). */
  createUser: (options?: NewUser) => Promise<TestUser>;
};
type WorkerFixtures = { server: Server; admin: HttpSession };

export const test = base.extend<Fixtures, WorkerFixtures>({
  server: [async ({}, use) => use(serverFromEnvironment()), { scope: 'worker' }],
  admin: [
    async ({ server }, use) => {
      const admin = new HttpSession(server.baseUrl);
      await admin.login(ADMIN.email, ADMIN.password);
      await use(admin);
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
  createUser: async ({ admin, server }, use) => use((options) => createUser(admin, server, options)),
});
