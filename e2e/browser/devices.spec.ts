import type { Locator, Page } from '@playwright/test';
import { ADMIN } from './support/environment';
import { expect, expectAccessible, signIn } from './support/fixtures';
import { test, uniqueMachineId } from './support/machines';

/** 32 random bytes, base64url, as the server makes a controller's secret. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The secret a secret dialog shows, after checking the username beside it. */
async function shownSecret(dialog: Locator, machineId: string): Promise<string> {
  await expect(dialog.getByLabel('Nazwa użytkownika MQTT')).toHaveText(machineId);
  const secret = (await dialog.getByLabel('Sekret (hasło MQTT)').textContent()) ?? '';
  expect(secret).toMatch(SECRET);
  return secret;
}

const clipboardText = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('an administrator registers a controller, copies its secret once, and gives it a new one', async ({
  page,
  context,
  startMachine,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const machineId = uniqueMachineId('CTRL');
  await signIn(page, ADMIN, '/admin/sprinklers');
  const section = page.getByRole('region', { name: 'Sterowniki' });
  // The demo's controllers are listed among those other specs registered, found by the search.
  const search = section.getByRole('searchbox', { name: 'Szukaj sterowników' });
  await search.fill('PIVOT-01');
  await expect(section.getByRole('table', { name: 'Sterowniki' })).toContainText('PIVOT-01');
  await search.fill('');

  // Register: the ID is checked as the server checks it.
  await section.getByRole('button', { name: 'Zarejestruj sterownik' }).click();
  const form = page.getByRole('dialog', { name: 'Zarejestruj sterownik' });
  const id = form.getByLabel('ID maszyny');
  await expect(id).toBeFocused();
  await id.fill('pole północne');
  await form.getByRole('button', { name: 'Zarejestruj', exact: true }).click();
  await expect(id).toHaveAccessibleDescription(/Użyj od 1 do 64 liter \(bez polskich znaków\), cyfr/);
  await id.fill(machineId);
  await form.getByRole('button', { name: 'Zarejestruj', exact: true }).click();

  // The secret, once: with the username, what to do with them, and a copy button.
  const registered = page.getByRole('dialog', { name: `Zarejestrowano sterownik ${machineId}` });
  await expect(registered).toHaveAccessibleDescription(
    'Wpisz te dane w sterowniku. Ten sekret nie zostanie pokazany ponownie.',
  );
  await expect(registered).toContainText('Następnie dodaj maszynę przyciskiem „Dodaj maszynę”.');
  const first = await shownSecret(registered, machineId);
  await expectAccessible(page, 'secret dialog');
  await registered.getByRole('button', { name: 'Kopiuj sekret' }).click();
  await expect(registered.getByRole('status').filter({ hasText: 'Skopiowano' })).toBeVisible();
  expect(await clipboardText(page)).toBe(first);
  await registered.getByRole('button', { name: 'Gotowe' }).click();
  await expect(registered).toBeHidden();
  await expect(page.getByText(first)).toHaveCount(0);

  // Listed, without a machine and never connected yet.
  await section.getByRole('searchbox', { name: 'Szukaj sterowników' }).fill(machineId);
  const row = section.getByRole('row').filter({ hasText: machineId });
  await expect(row).toContainText('Maszyna jeszcze niedodana');
  await expect(row).toContainText('Jeszcze się nie połączył');

  // A new secret, after a confirmation that says the controller is disconnected meanwhile.
  await row.getByRole('button', { name: `Nowy sekret dla ${machineId}` }).click();
  const confirm = page.getByRole('dialog', { name: `Nadać sterownikowi ${machineId} nowy sekret?` });
  await expect(confirm).toContainText('sterownik zostanie rozłączony, dopóki nie wpiszesz w nim nowego sekretu');
  await confirm.getByRole('button', { name: 'Nadaj nowy sekret' }).click();
  const replaced = page.getByRole('dialog', { name: `Nowy sekret sterownika ${machineId}` });
  const second = await shownSecret(replaced, machineId);
  expect(second).not.toBe(first);
  await replaced.getByRole('button', { name: 'Gotowe' }).click();
  await expect(replaced).toBeHidden();

  // The new secret opens the broker: the list tells when and from where the controller connected.
  await startMachine({ id: machineId, secret: second });
  await expect(row).toContainText('z adresu', { timeout: 30_000 });
});
