import { fileURLToPath } from 'node:url';
import { expect, openInApp, signIn, test } from './support/fixtures';

const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

test("the server's field errors come in the page's language, not the account's", async ({ page, createUser }) => {
  const user = await createUser({ language: 'en' });
  await signIn(page, user, '/dashboard/account');
  const form = page.locator('form').filter({ has: page.getByLabel('Obecne hasło') });
  await form.getByLabel('Obecne hasło').fill('Not-my-password-1');
  await form.getByLabel('Nowe hasło', { exact: true }).fill('Barley-field-2028#');
  await form.getByLabel('Powtórz nowe hasło').fill('Barley-field-2028#');
  await form.getByRole('button', { name: 'Zmień hasło' }).click();
  await expect(form.getByLabel('Obecne hasło')).toHaveAccessibleDescription('Obecne hasło jest nieprawidłowe');
  await form.screenshot({ path: `${SCREENSHOTS}password-error-english-account-polish-page.png` });
});

test('a rejected password change shows the problems under its fields', async ({ page, createUser }) => {
  const user = await createUser();
  await signIn(page, user, '/dashboard/account');
  const form = page.locator('form').filter({ has: page.getByLabel('Obecne hasło') });
  const submit = form.getByRole('button', { name: 'Zmień hasło' });

  await submit.click();
  await expect(form.getByText('To pole jest wymagane')).toBeVisible();
  await expect(form.getByText('Hasło nie spełnia wszystkich zasad')).toBeVisible();

  await form.getByLabel('Obecne hasło').fill('Not-my-password-1');
  await form.getByLabel('Nowe hasło', { exact: true }).fill('Barley-field-2028#');
  await form.getByLabel('Powtórz nowe hasło').fill('Barley-field-2028#');
  await submit.click();
  await expect(form.getByLabel('Obecne hasło')).toHaveAccessibleDescription('Obecne hasło jest nieprawidłowe');
  await expect(page.getByRole('alert')).toHaveCount(0);

  await form.getByLabel('Obecne hasło').fill(user.password);
  await form.getByLabel('Nowe hasło', { exact: true }).fill(user.password);
  await form.getByLabel('Powtórz nowe hasło').fill(user.password);
  await submit.click();
  await expect(form.getByText('Nowe hasło musi różnić się od obecnego')).toBeVisible();

  await form.getByLabel('Nowe hasło', { exact: true }).fill('Barley-field-2028#');
  await form.getByLabel('Powtórz nowe hasło').fill('Barley-field-2028#');
  await submit.click();
  await expect(page.getByRole('status').filter({ hasText: 'Hasło zostało zmienione' })).toBeVisible();
  await expect(form.getByLabel('Obecne hasło')).toHaveValue('');
});

test('logging out asks first; Cancel, Escape and the backdrop all keep the session', async ({ page, createUser }) => {
  const user = await createUser({ firstName: 'Ewa', lastName: 'Nowak' });
  await signIn(page, user, '/dashboard/account');
  const dialog = page.getByRole('dialog', { name: 'Wylogować się?' });
  const logout = page.getByRole('button', { name: 'Wyloguj się' });

  await logout.click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Anuluj' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Anuluj' }).click();
  await expect(dialog).toBeHidden();
  await expect(logout).toBeFocused();

  await logout.click();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await logout.click();
  await page.mouse.click(5, 5);
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/dashboard/account');

  // The same confirmation from the account menu in the header.
  await page.getByRole('button', { name: 'Menu konta: Ewa Nowak' }).click();
  await page.getByRole('menuitem', { name: 'Wyloguj się' }).click();
  await dialog.getByRole('button', { name: 'Wyloguj' }).click();
  await expect(page).toHaveURL('/login');
  await page.goto('/dashboard/account');
  await expect(page).toHaveURL('/login?redirect=%2Fdashboard%2Faccount');
});

test('deleting the account asks for the email, then signs out for good', async ({ page, createUser }) => {
  const user = await createUser();
  await signIn(page, user, '/dashboard/account');
  const remove = page.getByRole('button', { name: 'Usuń konto' });
  const dialog = page.getByRole('dialog', { name: 'Usunąć Twoje konto?' });

  await remove.click();
  await dialog.getByLabel(`Wpisz ${user.email}, aby potwierdzić`).fill('someone@else.test');
  await dialog.getByRole('button', { name: 'Usuń na zawsze' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Email się nie zgadza' })).toBeVisible();
  await expect(page).toHaveURL('/dashboard/account');

  await remove.click();
  await dialog.getByLabel(`Wpisz ${user.email}, aby potwierdzić`).fill(user.email);
  await dialog.getByRole('button', { name: 'Usuń na zawsze' }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('status').filter({ hasText: 'Twoje konto zostało usunięte' })).toBeVisible();

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Hasło', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nieprawidłowy email lub hasło' })).toBeVisible();
});

test('the language switch moves to the /en page and saves the language on the account', async ({
  page,
  createUser,
  admin,
}) => {
  const user = await createUser();
  await signIn(page, user, '/dashboard/account');
  await page.getByRole('button', { name: 'English' }).click();

  await expect(page).toHaveURL('/en/dashboard/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const cookie = (await page.context().cookies()).find((entry) => entry.name === 'locale');
  expect(cookie).toMatchObject({ value: 'en', path: '/', sameSite: 'Lax' });
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
  await expect
    .poll(async () => {
      const list = await admin.call('GET', `/api/user/list/?search=${encodeURIComponent(user.email)}`);
      return (list.body as { data: { user: { language: string } }[] }).data[0]?.user.language;
    })
    .toBe('en');

  // Links stay in English, and the cookie brings a fresh visit of an unprefixed page to English.
  await page.getByRole('link', { name: /start page/ }).click();
  await expect(page).toHaveURL('/en');
  await page.goto('/dashboard/activity');
  await expect(page).toHaveURL('/en/dashboard/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();

  await page.getByRole('button', { name: 'Polski' }).click();
  await expect(page).toHaveURL('/dashboard/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Aktywność' })).toBeVisible();
});

test('a first visit follows the browser language', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ locale: 'en-GB', baseURL });
  const page = await context.newPage();
  await page.goto('/forgot');
  await expect(page).toHaveURL('/en/forgot');
  await expect(page.getByRole('heading', { level: 1, name: 'Reset the password' })).toBeVisible();
  await page.goto('/en/this/does/not/exist');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await context.close();
});

test('the colour mode is kept across reloads, and "system" follows the system', async ({ page }) => {
  // The page's head sets the mode before the parser reaches the body (no light flash on a dark
  // page), by a script the server's Content-Security-Policy must let run.
  await page.addInitScript(() => {
    const seen = window as unknown as { darkWhenBodyCame?: boolean };
    const observer = new MutationObserver(() => {
      if (!document.body) return;
      seen.darkWhenBodyCame = document.documentElement.classList.contains('dark');
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const refusedScripts: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) refusedScripts.push(message.text());
  });
  const darkWhenBodyCame = () => page.evaluate(() => (window as { darkWhenBodyCame?: boolean }).darkWhenBodyCame);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/login');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  expect(await darkWhenBodyCame()).toBe(false);

  await page.getByRole('button', { name: 'Przełącz na tryb ciemny' }).click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('nuxt-color-mode'))).toBe('dark');
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect(html).toHaveClass(/dark/);
  expect(await darkWhenBodyCame()).toBe(true);
  expect(refusedScripts).toEqual([]);

  await page.getByRole('button', { name: 'Przełącz na tryb jasny' }).click();
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);

  await page.evaluate(() => localStorage.setItem('nuxt-color-mode', 'system'));
  await page.reload();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).not.toHaveClass(/dark/);
});

test('the bell counts unread events; opening it lists them and marks them read', async ({ page, createUser }) => {
  const user = await createUser();
  await signIn(page, user, '/');
  const bell = page.getByRole('button', { name: /^Powiadomienia, \d+ nieprzeczytane/ });
  await expect(bell).toBeVisible();
  await expect(page.getByTestId('unread-badge')).toHaveText('2');

  await bell.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: /Aktywowano konto/ })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: /Utworzono konto/ })).toBeVisible();
  await expect(page.getByTestId('unread-badge')).toBeHidden();

  await menu.getByRole('menuitem', { name: 'Zobacz całą aktywność' }).click();
  await expect(page).toHaveURL('/dashboard/activity');
  await page.getByRole('button', { name: 'Nieprzeczytane' }).click();
  await expect(page.getByText('Brak nieprzeczytanych zdarzeń')).toBeVisible();
  await page.getByRole('button', { name: 'Wszystkie', exact: true }).click();
  const table = page.getByRole('table', { name: 'Aktywność konta' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).toContainText(`Użytkownik ${user.email} aktywowany przez ${user.email}`);
  await expect(page.getByText('1–2 z 2')).toBeVisible();
});

test('opening the bell marks read only the events it shows; the rest stay unread', async ({
  page,
  admin,
  createUser,
}) => {
  const user = await createUser();
  // Created and activated, and 17 changes: 19 unread events, of which the bell lists the newest 4.
  for (let change = 1; change <= 17; change += 1) {
    const changed = await admin.call('PATCH', `/api/user/${user.id}/`, { last_name: `Kowalski ${change}` });
    expect(changed.status).toBe(200);
  }
  await signIn(page, user, '/');
  await expect(page.getByTestId('unread-badge')).toHaveText('19');

  await page.getByRole('button', { name: /^Powiadomienia, 19 nieprzeczytanych/ }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: /Zmieniono konto/ })).toHaveCount(4);
  await expect(page.getByTestId('unread-badge')).toHaveText('15');
  await page.screenshot({ path: `${SCREENSHOTS}bell-marks-shown-read-pl-desktop.png` });
  await page.keyboard.press('Escape');

  await openInApp(page, '/dashboard/activity');
  await page.getByRole('button', { name: 'Nieprzeczytane' }).click();
  await expect(page.getByText('1–10 z 15')).toBeVisible();
  await page.getByRole('button', { name: 'Wszystkie', exact: true }).click();
  const rows = page.getByRole('table', { name: 'Aktywność konta' }).getByRole('row');
  await expect(rows).toHaveCount(11);
  for (const row of [1, 2, 3, 4]) await expect(rows.nth(row)).not.toContainText('(nieprzeczytane)');
  await expect(rows.nth(5)).toContainText('(nieprzeczytane)');
  await page.reload();
  await expect(page.getByTestId('unread-badge')).toHaveText('15');
});
