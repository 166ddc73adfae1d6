import { readFile } from 'node:fs/promises';
import { enterPassword, expect, signIn, signOut, test } from './support/fixtures';
import { totpCodeAfter, totpStep } from './support/totp';

test('two-step sign-in: turned on from the account page, then signing in with a code, a recovery code, and a remembered browser', async ({
  page,
  createUser,
}) => {
  const user = await createUser();
  await signIn(page, user, '/dashboard/account');

  // Turning it on: the password, the app's key (read from the page, as a person types it in), its first code.
  const card = page.getByRole('region', { name: 'Logowanie dwuetapowe' });
  await expect(card.getByText('Wyłączone')).toBeVisible();
  await card.getByRole('button', { name: 'Włącz' }).click();
  const password = page.getByRole('dialog', { name: 'Włącz logowanie dwuetapowe' });
  await password.getByLabel('Obecne hasło').fill('Not-my-password-1');
  await password.getByRole('button', { name: 'Dalej' }).click();
  await expect(password.getByLabel('Obecne hasło')).toHaveAccessibleDescription('Hasło jest nieprawidłowe');
  await password.getByLabel('Obecne hasło').fill(user.password);
  await password.getByRole('button', { name: 'Dalej' }).click();

  const setup = page.getByRole('dialog', { name: 'Skonfiguruj aplikację uwierzytelniającą' });
  await expect(setup.getByRole('img', { name: 'Kod QR dla aplikacji uwierzytelniającej' })).toBeVisible();
  const secret = ((await setup.getByLabel('Klucz', { exact: true }).textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  let used = totpCodeAfter(secret, totpStep() - 1);
  await setup.getByLabel('2. Wpisz 6-cyfrowy kod, który pokazuje aplikacja').fill(used.code);
  await setup.getByRole('button', { name: 'Włącz' }).click();

  // The recovery codes, shown once: saved as a file, one kept for later.
  const codesDialog = page.getByRole('dialog', { name: 'Twoje kody odzyskiwania' });
  await expect(codesDialog.getByRole('listitem')).toHaveCount(10);
  const codes = await codesDialog.getByRole('listitem').allTextContents();
  for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    codesDialog.getByRole('button', { name: 'Pobierz (.txt)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('kody-odzyskiwania.txt');
  const saved = await readFile(await download.path(), 'utf8');
  for (const code of codes) expect(saved).toContain(code);
  await codesDialog.getByRole('button', { name: 'Gotowe, zapisane' }).click();
  await expect(codesDialog).toBeHidden();
  await expect(card.getByText('Pozostało 10 kodów odzyskiwania')).toBeVisible();

  // The password alone no longer signs in: the code is asked in its place.
  await signOut(page);
  await enterPassword(page, user);
  const code = page.getByRole('textbox', { name: 'Kod z aplikacji' });
  await expect(code).toBeFocused();
  await expect(page.getByLabel('Hasło', { exact: true })).toHaveCount(0);
  await code.fill('000000' === used.code ? '111111' : '000000');
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(code).toHaveAccessibleDescription(/Kod jest błędny/);
  // The server takes each 30-second step once: the code of a later step than the set-up's.
  used = totpCodeAfter(secret, used.step);
  await code.fill(used.code);
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(page).toHaveURL('/');

  // A recovery code instead, and this browser remembered.
  await signOut(page);
  await enterPassword(page, user);
  await page.getByRole('button', { name: 'Użyj kodu odzyskiwania' }).click();
  await page.getByRole('textbox', { name: 'Kod odzyskiwania' }).fill(codes[0]!.toUpperCase());
  await page.getByLabel('Zapamiętaj tę przeglądarkę na 30 dni').check();
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(page).toHaveURL('/');
  await page.goto('/dashboard/account');
  await expect(card.getByText('Pozostało 9 kodów odzyskiwania')).toBeVisible();

  // The remembered browser signs in with the password alone.
  await signOut(page);
  await enterPassword(page, user);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('textbox', { name: 'Kod z aplikacji' })).toHaveCount(0);
});
