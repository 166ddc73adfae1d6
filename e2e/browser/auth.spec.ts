import type { Route } from '@playwright/test';
import { mailedLinkPath, waitForMail } from '../support/outbox';
import { GOOD_PASSWORD, expect, test, uniqueEmail } from './support/fixtures';

test('signing in lands on the page that asked for it', async ({ page, createUser }) => {
  const user = await createUser({ firstName: 'Zofia' });
  await page.goto('/dashboard/activity');
  await expect(page).toHaveURL('/login?redirect=%2Fdashboard%2Factivity');

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Hasło', { exact: true }).fill(user.password);
  await page.getByLabel('Zapamiętaj mnie').check();
  await page.getByRole('button', { name: 'Zaloguj się' }).click();

  await expect(page).toHaveURL('/dashboard/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Aktywność' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu konta: Zofia Kowalski' })).toHaveText('ZK');
});

test('a new user activates the account from the mail in the outbox', async ({ page, admin, server }) => {
  const email = uniqueEmail('new');
  const created = await admin.call('POST', '/api/user/', { first_name: 'Tomasz', last_name: 'Rolnik', email });
  expect(created.status).toBe(201);
  const link = mailedLinkPath(await waitForMail(server.dataDir, email, '/activation/'), 'activation');

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Aktywuj konto' })).toBeVisible();
  const newPassword = page.getByLabel('Nowe hasło', { exact: true });
  await newPassword.fill('short');
  await expect(page.getByText('co najmniej 8 znaków')).not.toHaveClass(/text-success/);
  await newPassword.fill(GOOD_PASSWORD);
  await expect(page.getByText('co najmniej 8 znaków').locator('..')).toHaveClass(/text-success/);
  await page.getByLabel('Powtórz nowe hasło').fill('Corn-field-2026?');
  await page.getByRole('button', { name: 'Ustaw hasło' }).click();
  await expect(page.getByText('Hasła muszą być takie same')).toBeVisible();
  await page.getByLabel('Powtórz nowe hasło').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Ustaw hasło' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'Hasło zostało ustawione' })).toBeVisible();
  await expect(page).toHaveURL('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Hasło', { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dzień dobry, Tomasz' })).toBeVisible();
});

test('a forgotten password is reset from the mailed link', async ({ page, createUser, server }) => {
  const user = await createUser();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Nie pamiętasz hasła?' }).click();
  await expect(page).toHaveURL('/forgot');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Wyślij link' }).click();
  await expect(page.getByText('Jeśli konto z tym adresem email istnieje')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Wróć do logowania' })).toBeVisible();

  const link = mailedLinkPath(await waitForMail(server.dataDir, user.email, '/set-password/'), 'set-password');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Ustaw nowe hasło' })).toBeVisible();
  const newPassword = 'Wheat-field-2027?';
  await page.getByLabel('Nowe hasło', { exact: true }).fill(newPassword);
  await page.getByLabel('Powtórz nowe hasło').fill(newPassword);
  await page.getByRole('button', { name: 'Ustaw hasło' }).click();
  await expect(page).toHaveURL('/login');

  // The link is single use: opening it again is refused with the catalogue's words.
  await page.goto(link);
  await page.getByLabel('Nowe hasło', { exact: true }).fill(GOOD_PASSWORD);
  await page.getByLabel('Powtórz nowe hasło').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Ustaw hasło' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Link jest nieważny' })).toBeVisible();

  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Hasło', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(page).toHaveURL('/');
});

test('a repeated failure shows its toast once', async ({ page, createUser }) => {
  const user = await createUser();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Hasło', { exact: true }).fill('Not-the-password-1');
  const submit = page.getByRole('button', { name: 'Zaloguj się' });
  await submit.click();
  const warning = page.getByRole('alert').filter({ hasText: 'Nieprawidłowy email lub hasło' });
  await expect(warning).toBeVisible();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(submit).toBeEnabled();
  await page.getByLabel('Hasło', { exact: true }).press('Enter');
  await expect(submit).toBeEnabled();
  await expect(warning).toHaveCount(1);
  await expect(warning).toHaveAttribute('data-variant', 'warning');

  await warning.getByRole('button', { name: 'Zamknij' }).click();
  await expect(warning).toHaveCount(0);
});

test('the login page painted before its scripts run takes no input it would lose, then takes it all', async ({
  page,
}) => {
  // The app's code is held back, as on a slow phone line: the page shown is the build's HTML.
  const heldBack: Route[] = [];
  let holding = true;
  await page.route('**/assets/*.js', (route) => (holding ? heldBack.push(route) : route.continue()));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Przełącz na tryb ciemny' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'EN – English' })).toBeDisabled();

  holding = false;
  await Promise.all(heldBack.map((route) => route.continue()));
  await page.getByRole('button', { name: 'Przełącz na tryb ciemny' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByLabel('Email')).toBeEnabled();
  await page.getByRole('button', { name: 'EN – English' }).click();
  await expect(page).toHaveURL('/en/login');
});
