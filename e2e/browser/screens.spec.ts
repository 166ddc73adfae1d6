import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ADMIN } from './support/environment';
import { expect, expectAccessible, openInApp, signIn, test } from './support/fixtures';

const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

// Eight runs of 20-45 s each, independent of each other: both workers share them, so the file is
// not the run's last minutes on one worker while the other waits.
test.describe.configure({ mode: 'parallel' });

const LOCALES = ['pl', 'en'] as const;
const SCHEMES = ['light', 'dark'] as const;
const DEVICES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } } as const;

type Locale = (typeof LOCALES)[number];
const localize = (locale: Locale, path: string) => (locale === 'pl' ? path : `/en${path === '/' ? '' : path}`);

/** Every screen of docs/product.md#screens, by who sees it (besides the login and home pages, where each part starts). */
const GUEST_SCREENS = {
  forgot: '/forgot',
  activation: '/activation/1/link-token',
  'set-password': '/set-password/1/link-token',
  'not-found': '/no/such/page',
};
const ADMIN_SCREENS = {
  account: '/dashboard/account',
  activity: '/dashboard/activity',
  'admin-users': '/admin/users',
  'admin-sprinklers': '/admin/sprinklers',
  sprinklers: '/sprinklers',
  sprinkler: '/sprinklers/1',
  sector: '/sprinklers/1/1/north',
  farms: '/farms',
  // The demo fleet's farm, the server's first.
  farm: '/farms/1',
  // The administrator's fleet is empty: the screen says so.
  dealer: '/dealer',
};

for (const locale of LOCALES) {
  for (const scheme of SCHEMES) {
    for (const [device, viewport] of Object.entries(DEVICES)) {
      test(`every screen in ${locale}, ${scheme}, on a ${device}`, async ({ browser, baseURL, createUser }) => {
        // Fifteen screens, each photographed whole and, in Polish, checked for accessibility: up to 45 s
        // alone here, more than a minute under CI's load.
        test.setTimeout(150_000);
        const context = await browser.newContext({
          baseURL,
          viewport,
          colorScheme: scheme,
          locale: locale === 'pl' ? 'pl-PL' : 'en-GB',
          hasTouch: device === 'phone',
          isMobile: device === 'phone',
        });
        const page = await context.newPage();
        // Accessibility depends on the colours and the layout, not on the language.
        const check = async (name: string) => {
          await expect(page.locator('h1')).toBeVisible();
          await expect(page.getByRole('status').filter({ hasText: /Ładowanie|Loading/ })).toHaveCount(0);
          await expect(page.getByRole('cell', { name: /Ładowanie|Loading/ })).toHaveCount(0);
          await page.screenshot({ path: `${SCREENSHOTS}${name}-${locale}-${scheme}-${device}.png`, fullPage: true });
          if (locale === 'pl' && (device === 'desktop' || scheme === 'light')) {
            await expectAccessible(page, `${name} (${scheme}, ${device})`);
          }
        };
        // The previous screen's title goes first, so the new screen is not mistaken for it. Under a
        // loaded clean clone the login page once missed the move (its title stayed two minutes):
        // the move is made again until the title goes.
        const visit = async (name: string, path: string) => {
          const previousTitle = await page.locator('h1').elementHandle();
          await expect(async () => {
            await openInApp(page, localize(locale, path));
            await previousTitle?.waitForElementState('hidden', { timeout: 10_000 });
          }).toPass({ timeout: 60_000 });
          await check(name);
        };

        await page.goto(localize(locale, '/login'));
        await check('login');
        for (const [name, path] of Object.entries(GUEST_SCREENS)) await visit(name, path);

        await signIn(page, ADMIN, localize(locale, '/'));
        await check('home');
        for (const [name, path] of Object.entries(ADMIN_SCREENS)) await visit(name, path);

        // A screen whose code cannot be fetched (say, right after a deploy) shows the error page;
        // a fresh page load forgets the screens' code fetched so far.
        await page.goto(localize(locale, '/no-such-page'));
        await page.route(/\/assets\/account-[\w-]+\.js$/, (route) => route.abort());
        await visit('error', '/dashboard/account');
        await expect(page.locator('h1')).toHaveText(/Internal Server Error|Wewnętrzny błąd serwera/);

        const farmer = await createUser({ language: locale });
        await signIn(page, farmer, localize(locale, '/admin/users'));
        await check('admin-guard');
        await context.close();
      });
    }
  }
}
