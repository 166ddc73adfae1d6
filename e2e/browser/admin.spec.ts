import type { Locator, Page } from '@playwright/test';
import { HttpSession } from '../support/http-session';
import { waitForMail } from '../support/outbox';
import { ADMIN } from './support/environment';
import { GOOD_PASSWORD, expect, expectAccessible, openInApp, signIn, uniqueEmail } from './support/fixtures';
import { test, uniqueMachineId } from './support/machines';

/** The table's search box, which asks the server once typing pauses. */
async function searchTable(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Szukaj', exact: true }).fill(text);
}

/** A toast, in the dialog when one is open (the page behind a modal dialog is inert). */
const toastIn = (scope: Page | Locator, role: 'status' | 'alert', text: string) =>
  scope.getByRole(role).filter({ hasText: text });

test('an administrator adds a user, edits them, grants and revokes a machine, and deletes them', async ({
  page,
  server,
  admin,
}) => {
  const email = uniqueEmail('nowy');
  await signIn(page, ADMIN, '/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Użytkownicy' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Panel administracyjny' })).toContainText('Maszyny');
  await expect(page.getByRole('table', { name: 'Użytkownicy' }).getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page, 'admin users');

  // Add: the form opens in a dialog; Escape closes it and gives the focus back.
  const add = page.getByRole('button', { name: 'Dodaj użytkownika' });
  await add.click();
  const form = page.getByRole('dialog', { name: 'Dodaj użytkownika' });
  await expect(form.getByLabel('Imię')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(add).toBeFocused();

  await add.click();
  await form.getByRole('button', { name: 'Dodaj użytkownika' }).click();
  await expect(form.getByLabel('Imię')).toHaveAccessibleDescription('To pole jest wymagane');
  await form.getByLabel('Imię').fill('Zofia');
  await form.getByLabel('Nazwisko').fill('Siewna');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Telefon').fill('+48 600 100 200');
  await form.getByLabel('Firma').fill('Gospodarstwo Siewna');
  await form.getByLabel('Język wiadomości i interfejsu').selectOption('en');
  await form.getByLabel('Subskrypcja ważna do').fill('31.03.2030');
  await expectAccessible(page, 'user form');
  await form.getByRole('button', { name: 'Dodaj użytkownika' }).click();
  await expect(toastIn(page, 'status', 'Dodano użytkownika')).toContainText(email);
  await expect(form).toBeHidden();
  const mail = await waitForMail(server.dataDir, email, '/en/activation/');
  expect(mail).toContain(email);

  await searchTable(page, email);
  const table = page.getByRole('table', { name: 'Użytkownicy' });
  const row = table.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Zofia Siewna');
  await expect(row).toContainText('Jeszcze nieaktywne');
  await expect(row).toContainText('Gospodarstwo Siewna');
  await expect(row).toContainText('31.03.2030');
  await expect(row).toContainText('Brak maszyn');

  // The same email again: the spec's warning, and the form stays open with the email marked.
  await add.click();
  await form.getByLabel('Imię').fill('Zofia');
  await form.getByLabel('Nazwisko').fill('Druga');
  await form.getByLabel('Email').fill(email.toUpperCase());
  await form.getByRole('button', { name: 'Dodaj użytkownika' }).click();
  await expect(toastIn(form, 'alert', 'Użytkownik o tym adresie email już istnieje.')).toBeVisible();
  await expect(form.getByLabel('Email')).toHaveAccessibleDescription('Użytkownik o tym adresie email już istnieje.');
  await form.getByRole('button', { name: 'Anuluj' }).click();
  await expect(form).toBeHidden();

  // Edit.
  await row.getByRole('button', { name: 'Edytuj: Zofia Siewna' }).click();
  const edit = page.getByRole('dialog', { name: 'Edytuj: Zofia Siewna' });
  await expect(edit.getByLabel('Email')).toHaveValue(email);
  await expect(edit.getByLabel('Język wiadomości i interfejsu')).toHaveValue('en');
  await edit.getByLabel('Firma').fill('Agro Siewna sp. z o.o.');
  await edit.getByLabel('Administrator: zarządza użytkownikami i maszynami').check();
  await edit.getByRole('button', { name: 'Zapisz zmiany' }).click();
  await expect(toastIn(page, 'status', 'Zapisano zmiany')).toBeVisible();
  await expect(row).toContainText('Agro Siewna sp. z o.o.');
  await expect(row).toContainText('Administrator');

  // Grant a machine she does not have yet.
  await row.getByRole('button', { name: 'Przydziel maszynę użytkownikowi Zofia Siewna' }).click();
  const grant = page.getByRole('dialog', { name: 'Przydziel maszynę użytkownikowi Zofia Siewna' });
  await grant.getByRole('searchbox', { name: 'Szukaj maszyn' }).fill('PIVOT-02');
  await grant.getByRole('radio', { name: /PIVOT-02/ }).check();
  await grant.getByRole('button', { name: 'Przydziel dostęp' }).click();
  await expect(toastIn(page, 'status', 'Przydzielono dostęp')).toBeVisible();
  await expect(grant).toBeHidden();
  const machines = row.getByRole('list', { name: 'Maszyny' });
  await expect(machines.getByRole('listitem')).toHaveCount(1);
  await expect(machines).toContainText('PIVOT-02');

  // A machine she has is not offered again.
  await row.getByRole('button', { name: 'Przydziel maszynę użytkownikowi Zofia Siewna' }).click();
  await grant.getByRole('searchbox', { name: 'Szukaj maszyn' }).fill('PIVOT-02');
  await expect(grant.getByText('Brak maszyn do przydzielenia')).toBeVisible();
  await grant.getByRole('button', { name: 'Anuluj' }).click();

  // Revoke, after a confirmation.
  await machines.getByRole('button', { name: /^Odbierz użytkownikowi Zofia Siewna dostęp do maszyny/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Odebrać dostęp?' });
  await confirm.getByRole('button', { name: 'Odbierz dostęp' }).click();
  await expect(toastIn(page, 'status', 'Odebrano dostęp')).toBeVisible();
  await expect(row).toContainText('Brak maszyn');
  // The toast covers the row's buttons at the top right: closed as a user would.
  await toastIn(page, 'status', 'Odebrano dostęp').getByRole('button', { name: 'Zamknij' }).click();

  // Delete, after a confirmation: the user is gone from the list and from the server.
  await row.getByRole('button', { name: 'Usuń: Zofia Siewna' }).click();
  const remove = page.getByRole('dialog', { name: 'Usunąć: Zofia Siewna?' });
  await expect(remove).toContainText(email);
  await remove.getByRole('button', { name: 'Usuń użytkownika' }).click();
  await expect(toastIn(page, 'status', 'Usunięto użytkownika')).toBeVisible();
  await expect(table.getByRole('cell', { name: `Nic nie pasuje do „${email}”` })).toBeVisible();
  const left = await admin.call('GET', `/api/user/list/?search=${encodeURIComponent(email)}`);
  expect((left.body as { count: number }).count).toBe(0);
});

test('an administrator adds a machine by its ID, renames it and grants it to a user, who then sees it', async ({
  page,
  admin,
  server,
  createUser,
  startMachine,
}) => {
  const machine = await startMachine();
  const farmer = await createUser({ firstName: 'Anna', lastName: 'Polna' });
  const fieldName = `Pole ${machine.id}`;
  await signIn(page, ADMIN, '/admin/sprinklers');
  await expect(page.getByRole('heading', { level: 1, name: 'Maszyny' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Maszyny' })).toContainText('PIVOT-01');
  await expectAccessible(page, 'admin machines');

  await page.getByRole('button', { name: 'Dodaj maszynę' }).click();
  const form = page.getByRole('dialog', { name: 'Dodaj maszynę' });
  await form.getByLabel('ID maszyny w brokerze wiadomości').fill(machine.id);
  await form.getByLabel('Nazwa (opcjonalnie)').fill(fieldName);
  await form.getByRole('button', { name: 'Dodaj maszynę' }).click();
  await expect(toastIn(page, 'status', 'Dodano maszynę')).toContainText(machine.id);
  await expect(form).toBeHidden();

  await searchTable(page, machine.id);
  const row = page.getByRole('table', { name: 'Maszyny' }).getByRole('row').filter({ hasText: machine.id });
  await expect(row).toContainText(fieldName);
  await expect(row).toContainText('Brak użytkowników');

  // Rename: the prompt starts from the current name.
  await row.getByRole('button', { name: `Zmień nazwę: ${fieldName}` }).click();
  const rename = page.getByRole('dialog', { name: `Zmień nazwę: ${fieldName}` });
  await expect(rename.getByLabel('Nowa nazwa')).toHaveValue(fieldName);
  await rename.getByLabel('Nowa nazwa').fill(`${fieldName} (nowe)`);
  await rename.getByRole('button', { name: 'Zmień nazwę' }).click();
  await expect(toastIn(page, 'status', 'Zmieniono nazwę maszyny')).toBeVisible();
  await expect(row).toContainText(`${fieldName} (nowe)`);

  // The low-pressure alert threshold, typed with a Polish decimal comma; a pressure out of range is refused.
  const lowPressure = page.getByRole('dialog', { name: `Alert niskiego ciśnienia: ${fieldName} (nowe)` });
  const setLowPressure = async (typed: string) => {
    await row.getByRole('button', { name: `Ustaw alert niskiego ciśnienia: ${fieldName} (nowe)` }).click();
    await lowPressure.getByRole('textbox').fill(typed);
    await lowPressure.getByRole('button', { name: 'Zapisz' }).click();
  };
  await expect(row).toContainText('poniżej 1 bar');
  await setLowPressure('12');
  await expect(toastIn(page, 'alert', 'Wpisz ciśnienie od 0 do 10 bar')).toBeVisible();
  await setLowPressure('1,5');
  await expect(toastIn(page, 'status', 'Zapisano alert niskiego ciśnienia')).toBeVisible();
  await expect(row).toContainText('poniżej 1,5 bar');

  // Grant it to the farmer, picked from the users without access.
  await row.getByRole('button', { name: `Przydziel maszynę ${fieldName} (nowe) użytkownikowi` }).click();
  const grant = page.getByRole('dialog', { name: `Przydziel maszynę ${fieldName} (nowe) użytkownikowi` });
  await grant.getByRole('searchbox', { name: 'Szukaj użytkowników' }).fill(farmer.email);
  await grant.getByRole('radio', { name: /Anna Polna/ }).check();
  await grant.getByRole('button', { name: 'Przydziel dostęp' }).click();
  // While the dialog closes its own toaster (shown above the modal) and the page's both hold the toast.
  await expect(grant).toBeHidden();
  await expect(toastIn(page, 'status', 'Przydzielono dostęp')).toContainText('Anna Polna');
  await expect(row.getByRole('list', { name: 'Użytkownicy' })).toContainText('Anna Polna');

  const farmerSession = new HttpSession(server.baseUrl);
  await farmerSession.login(farmer.email, GOOD_PASSWORD);
  const visible = await farmerSession.call('GET', '/api/sprinkler/');
  expect(visible.status).toBe(200);
  expect(visible.body).toEqual([
    expect.objectContaining({ internalId: machine.id, name: `${fieldName} (nowe)`, lowPressureBar: 1.5 }),
  ]);

  // Someone else revoked the access meanwhile: revoking it here is the spec's warning.
  const sprinklerId = (visible.body as { id: number }[])[0]!.id;
  const revokedElsewhere = await admin.call('PATCH', `/api/sprinkler/${sprinklerId}/permissions/`, {
    user: farmer.id,
    action: 'revoke',
  });
  expect(revokedElsewhere.status).toBe(200);
  await row.getByRole('button', { name: /^Odbierz użytkownikowi Anna Polna dostęp/ }).click();
  await page.getByRole('dialog', { name: 'Odebrać dostęp?' }).getByRole('button', { name: 'Odbierz dostęp' }).click();
  await expect(toastIn(page, 'alert', 'Użytkownik nie miał dostępu do tej maszyny.')).toBeVisible();
  await expect(row).toContainText('Brak użytkowników');

  // A user deleted while the list was open: granting to them says the user does not exist.
  const doomed = await createUser({ firstName: 'Piotr', lastName: 'Znikający' });
  await row.getByRole('button', { name: /^Przydziel maszynę .* użytkownikowi$/ }).click();
  await grant.getByRole('searchbox', { name: 'Szukaj użytkowników' }).fill(doomed.email);
  await grant.getByRole('radio', { name: /Piotr Znikający/ }).check();
  // Deleted the moment the grant is sent, so the dialog cannot refresh its list without the user
  // (and turn its button off) in between.
  await page.route('**/api/sprinkler/*/permissions/', async (route) => {
    expect((await admin.call('DELETE', `/api/user/${doomed.id}/`)).status).toBe(200);
    await route.continue();
  });
  await grant.getByRole('button', { name: 'Przydziel dostęp' }).click();
  await expect(toastIn(grant, 'alert', 'Maszyna lub użytkownik nie istnieje.')).toBeVisible();
  await page.unroute('**/api/sprinkler/*/permissions/');
  await grant.getByRole('button', { name: 'Anuluj' }).click();
  await expect(grant).toBeHidden();
});

test('adding a machine that does not answer, answers badly or exists already says so, and keeps the form', async ({
  page,
  startMachine,
}) => {
  await signIn(page, ADMIN, '/admin/sprinklers');
  await page.getByRole('button', { name: 'Dodaj maszynę' }).click();
  const form = page.getByRole('dialog', { name: 'Dodaj maszynę' });
  const id = form.getByLabel('ID maszyny w brokerze wiadomości');
  const submit = form.getByRole('button', { name: /Dodaj maszynę|Czekam na maszynę/ });

  await id.fill('no such machine');
  await submit.click();
  await expect(id).toHaveAccessibleDescription(/Użyj tylko liter, cyfr, „-” i „_”/);

  // No controller registered under this ID: none can connect, so the server answers 404 at once.
  await id.fill(uniqueMachineId('NOBODY'));
  await submit.click();
  await expect(toastIn(form, 'alert', 'Nie znaleziono maszyny o tym ID w brokerze wiadomości.')).toBeVisible();
  await expect(submit).toHaveText('Dodaj maszynę');

  // A registered machine that answers only after the server stopped waiting is just as absent.
  const late = await startMachine({ misbehaveNext: 'late' });
  await id.fill(late.id);
  await submit.click();
  await expect(submit).toHaveText('Czekam na maszynę…');
  await expect(form.getByRole('status').filter({ hasText: 'Serwer pyta maszynę' })).toBeVisible();
  await expect(toastIn(form, 'alert', 'Nie znaleziono maszyny o tym ID w brokerze wiadomości.')).toBeVisible();
  await expect(submit).toHaveText('Dodaj maszynę');

  // An answer the server cannot read.
  const garbled = await startMachine({ misbehaveNext: 'malformed' });
  await id.fill(garbled.id);
  await submit.click();
  await expect(toastIn(form, 'alert', 'Nie udało się przetworzyć odpowiedzi maszyny.')).toBeVisible();

  // A machine the server has already.
  await id.fill('PIVOT-01');
  await submit.click();
  await expect(toastIn(form, 'alert', 'Maszyna o tym ID już istnieje.')).toBeVisible();
  await expect(form).toBeVisible();
  await expect(id).toHaveValue('PIVOT-01');
});

test('an ordinary user is told the admin panel is for administrators', async ({ page, createUser }) => {
  const user = await createUser();
  await signIn(page, user, '/admin/users');
  const message = page.getByRole('heading', {
    level: 1,
    name: 'Panel administracyjny jest dostępny tylko dla administratorów systemu',
  });
  await expect(message).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await openInApp(page, '/admin/sprinklers');
  await expect(page).toHaveURL('/admin/sprinklers');
  await expect(message).toBeVisible();
  await expect(page.getByRole('button', { name: 'Dodaj maszynę' })).toHaveCount(0);
});

test('the admin screens in English', async ({ page }) => {
  await signIn(page, ADMIN, '/en/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link', { name: 'Machines' }).click();
  await expect(page).toHaveURL('/en/admin/sprinklers');
  await page.getByRole('button', { name: 'Add machine' }).click();
  const form = page.getByRole('dialog', { name: 'Add a machine' });
  await form.getByLabel('Machine ID on the message broker').fill('PIVOT-02');
  await form.getByRole('button', { name: 'Add machine' }).click();
  await expect(toastIn(form, 'alert', 'Machine with this ID already exists.')).toBeVisible();
});
