import type { Page } from '@playwright/test';
import { enterPassword, expect, signIn, signOut, test, toastWith } from './support/fixtures';

// WebAuthn runs only in a secure context: the server is opened as localhost, which browsers
// count as one over plain http, and which its PUBLIC_URL (http://localhost:PORT) names.
test.use({ baseURL: async ({ server }, use) => use(server.baseUrl.replace('//127.0.0.1:', '//localhost:')) });

/**
 * A platform authenticator in the page's browser, as a laptop's fingerprint reader is: Chromium's
 * virtual authenticator (DevTools' WebAuthn domain), which answers every prompt with a touch and
 * a verified user.
 */
async function virtualAuthenticator(page: Page) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

test('passkeys: added on the account page, then signing in with one after the password, and removed', async ({
  page,
  createUser,
}) => {
  const user = await createUser();
  await signIn(page, user, '/dashboard/account');
  const authenticator = await virtualAuthenticator(page);

  // Adding one: its name, the password, then the browser's prompt (the authenticator answers).
  const card = page.getByRole('region', { name: 'Logowanie dwuetapowe' });
  const passkeys = card.getByRole('region', { name: 'Klucze dostępu' });
  await expect(passkeys.getByText('Nie ma jeszcze kluczy dostępu.')).toBeVisible();
  await passkeys.getByRole('button', { name: 'Dodaj klucz dostępu' }).click();
  const naming = page.getByRole('dialog', { name: 'Nazwij klucz dostępu' });
  await naming.getByLabel('Nazwa').fill('Laptop');
  await naming.getByRole('button', { name: 'Dalej' }).click();
  const password = page.getByRole('dialog', { name: 'Dodaj klucz dostępu' });
  await password.getByLabel('Obecne hasło').fill(user.password);
  await password.getByRole('button', { name: 'Dalej' }).click();
  await expect(toastWith(page, 'Dodano klucz dostępu Laptop')).toBeVisible();
  await expect(passkeys.getByRole('listitem')).toHaveText(/Laptop.*Jeszcze nie użyty/);
  expect(await authenticator.credentials()).toHaveLength(1);

  // The password alone no longer signs in: the passkey is asked for, and answers.
  await signOut(page);
  await enterPassword(page, user);
  await expect(page.getByRole('textbox', { name: 'Kod z aplikacji' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Użyj klucza dostępu' }).click();
  await expect(page).toHaveURL('/');
  expect((await authenticator.credentials())[0]?.signCount).toBeGreaterThan(0);

  // Listed as used; removed once confirmed, after which the password alone signs in again.
  await page.goto('/dashboard/account');
  await expect(passkeys.getByRole('listitem')).toHaveText(/Laptop.*Ostatnio użyty/);
  await passkeys.getByRole('button', { name: 'Usuń Laptop' }).click();
  await page
    .getByRole('dialog', { name: 'Usunąć klucz dostępu Laptop?' })
    .getByRole('button', { name: 'Usuń' })
    .click();
  await expect(passkeys.getByText('Nie ma jeszcze kluczy dostępu.')).toBeVisible();
  await signOut(page);
  await enterPassword(page, user);
  await expect(page).toHaveURL('/');
});
