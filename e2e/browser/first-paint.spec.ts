import type { Page } from '@playwright/test';
import { expect, signIn } from './support/fixtures';
import { addAndGrant, test } from './support/machines';

/**
 * zod and the contracts' schemas (about 40 KB gzipped) are no part of a first paint: a first
 * screen's answers are checked once it has shown them (docs/web-app.md, "Answers checked after
 * the first paint"; the byte goals are in docs/benchmarks.md). A module's static imports load
 * before it runs, so a module on the list's path that imports them has zod asked for before the
 * list asks for its machines; the farm switch did, unnoticed, for two sessions.
 */
function requestedPaths(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

const isZod = (path: string) => /^\/assets\/zod-[\w-]+\.js$/.test(path);

test('the machines list asks for its machines before zod, and /login for no zod until the form is used', async ({
  page,
  browser,
  baseURL,
  admin,
  createUser,
  startMachine,
}) => {
  const farmer = await createUser();
  const machine = await startMachine();
  await addAndGrant(admin, machine, 'Pole przy lesie', farmer.id);

  const listPaths = requestedPaths(page);
  await signIn(page, farmer, '/sprinklers');
  await expect(
    page.getByRole('table', { name: 'Maszyny' }).getByRole('row').filter({ hasText: 'Pole przy lesie' }),
  ).toBeVisible({ timeout: 30_000 });
  // The schemas come once the list has shown its machines, to check the answers it showed.
  await expect.poll(() => listPaths.some(isZod)).toBe(true);
  const machinesAsked = listPaths.findIndex((path) => path === '/api/sprinkler/page/');
  expect(machinesAsked, listPaths.join('\n')).toBeGreaterThanOrEqual(0);
  expect(listPaths.findIndex(isZod), listPaths.join('\n')).toBeGreaterThan(machinesAsked);

  // A visitor of their own, not signed in.
  const visitor = await browser.newContext({ baseURL, locale: 'pl-PL', serviceWorkers: 'block' });
  try {
    const loginPage = await visitor.newPage();
    const loginPaths = requestedPaths(loginPage);
    await loginPage.goto('/login');
    await expect(loginPage.getByLabel('Email')).toBeEnabled();
    await loginPage.waitForLoadState('networkidle');
    expect(loginPaths.filter(isZod), loginPaths.join('\n')).toEqual([]);
    // Typing fetches the email's check, and zod with it.
    await loginPage.getByLabel('Email').fill(farmer.email);
    await expect.poll(() => loginPaths.some(isZod)).toBe(true);
  } finally {
    await visitor.close();
  }
});
