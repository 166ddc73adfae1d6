import type { Locator, Page } from '@playwright/test';
import { ADMIN } from './support/environment';
import { expect, expectAccessible, signIn, signedInPage, toastWith } from './support/fixtures';
import { addAndGrant, test } from './support/machines';

/** A member's row in the farm's members table, found by their name. */
const memberRow = (page: Page, name: string): Locator =>
  page.getByRole('table', { name: 'Członkowie gospodarstwa' }).getByRole('row').filter({ hasText: name });

test("the administrator creates a farm and adds its people; its owner makes a member a manager, who grants another member watch on the farm's machine, which that member then watches without controls", async ({
  page,
  browser,
  server,
  admin,
  createUser,
  startMachine,
}) => {
  test.setTimeout(120_000);
  const [owner, manager, watcher] = await Promise.all([
    createUser({ firstName: 'Olga', lastName: 'Właścicielka' }),
    createUser({ firstName: 'Marek', lastName: 'Zarządca' }),
    createUser({ firstName: 'Ewa', lastName: 'Podglądająca' }),
  ]);
  const machine = await startMachine();
  const machineName = `Pole ${machine.id}`;
  const machineId = await addAndGrant(admin, machine, machineName);
  const farmName = `Gospodarstwo ${machine.id}`;

  // The administrator creates the farm on the Farms screen, and is taken to it.
  await signIn(page, ADMIN, '/farms');
  await expect(page.getByRole('heading', { level: 1, name: 'Gospodarstwa' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Nazwa gospodarstwa' }).fill(farmName);
  await page.getByRole('button', { name: 'Utwórz gospodarstwo' }).click();
  await expect(page.getByRole('heading', { level: 1, name: farmName })).toBeVisible();
  await expect(page.getByText('Widzisz to gospodarstwo jako administrator serwera.')).toBeVisible();
  const farmId = Number(/\/farms\/(\d+)$/.exec(page.url())?.[1]);
  expect(farmId).toBeGreaterThan(0);

  // Its owner and two members, existing accounts added by their email.
  const add = page.getByRole('region', { name: 'Dodaj członka' });
  for (const [person, role] of [
    [owner, 'Właściciel'],
    [manager, 'Członek'],
    [watcher, 'Członek'],
  ] as const) {
    await add.getByRole('textbox', { name: 'E-mail' }).fill(person.email);
    await add.getByRole('combobox', { name: 'Rola' }).selectOption({ label: role });
    await add.getByRole('button', { name: 'Dodaj członka' }).click();
    await expect(memberRow(page, person.email)).toBeVisible();
    await expect(add.getByRole('textbox', { name: 'E-mail' })).toHaveValue('');
  }
  await expect(page.getByRole('heading', { name: 'Członkowie (3)' })).toBeVisible();
  await expect(memberRow(page, owner.email).getByRole('combobox', { name: 'Rola: Olga Właścicielka' })).toHaveValue(
    'owner',
  );
  // Adding someone twice is the user's to correct: a warning, and nothing changes.
  await add.getByRole('textbox', { name: 'E-mail' }).fill(watcher.email);
  await add.getByRole('button', { name: 'Dodaj członka' }).click();
  const warning = toastWith(page, 'Ta osoba jest już członkiem gospodarstwa: zmień jej rolę.', 'alert');
  await expect(warning).toHaveAttribute('data-variant', 'warning');
  await expect(page.getByRole('heading', { name: 'Członkowie (3)' })).toBeVisible();

  // The machine goes to the farm from its row of the admin panel's machines.
  await page.goto('/admin/sprinklers');
  await page.getByRole('searchbox', { name: 'Szukaj', exact: true }).fill(machine.id);
  const row = page.getByRole('table', { name: 'Maszyny' }).getByRole('row').filter({ hasText: machine.id });
  await row.getByRole('button', { name: `Przenieś maszynę ${machineName} do gospodarstwa` }).click();
  const move = page.getByRole('dialog', { name: `Przenieś maszynę ${machineName} do gospodarstwa` });
  await move.getByRole('combobox', { name: 'Gospodarstwo' }).selectOption({ label: farmName });
  await move.getByRole('button', { name: 'Przenieś' }).click();
  await expect(move).toBeHidden();
  await expect(toastWith(page, `Maszyna ${machineName} należy teraz do gospodarstwa ${farmName}.`)).toBeVisible();
  await page.goto(`/farms/${farmId}`);
  const machines = page.getByRole('region', { name: 'Maszyny (1)' });
  await expect(machines.getByRole('link', { name: new RegExp(machineName) })).toHaveAttribute(
    'href',
    `/sprinklers/${machineId}`,
  );
  await expectAccessible(page, "a farm's page, as the administrator");

  // The owner finds the farm through the account menu, and makes Marek a manager.
  const ownerPage = await signedInPage(browser, server.baseUrl, owner, '/');
  await ownerPage.getByRole('button', { name: 'Menu konta: Olga Właścicielka' }).click();
  await ownerPage.getByRole('menuitem', { name: 'Gospodarstwa' }).click();
  const farms = ownerPage.getByRole('table', { name: 'Gospodarstwa' });
  await expect(farms.getByRole('row').filter({ hasText: farmName })).toContainText('Właściciel');
  await farms.getByRole('link', { name: farmName }).click();
  await expect(ownerPage.getByRole('heading', { level: 1, name: farmName })).toBeVisible();
  await expect(ownerPage.getByText('Twoja rola: Właściciel')).toBeVisible();
  // Only the administrator adds people, for now.
  await expect(ownerPage.getByRole('region', { name: 'Dodaj członka' })).toHaveCount(0);
  const role = memberRow(ownerPage, manager.email).getByRole('combobox', { name: 'Rola: Marek Zarządca' });
  await role.selectOption('manager');
  await expect(toastWith(ownerPage, 'Marek Zarządca: Zarządca')).toBeVisible();
  await expect(role).toHaveValue('manager');
  await expect(memberRow(ownerPage, manager.email)).toContainText('Steruje wszystkimi maszynami gospodarstwa');
  await ownerPage.context().close();

  // The manager may not touch the owner, and grants Ewa watch on the farm's machine.
  const managerPage = await signedInPage(browser, server.baseUrl, manager, `/farms/${farmId}`);
  await expect(managerPage.getByText('Twoja rola: Zarządca')).toBeVisible();
  await expect(memberRow(managerPage, owner.email).getByRole('combobox')).toHaveCount(0);
  await expect(memberRow(managerPage, owner.email).getByRole('button')).toHaveCount(0);
  await expect(managerPage.getByRole('button', { name: 'Zmień nazwę' })).toHaveCount(0);
  const access = memberRow(managerPage, watcher.email).getByRole('combobox', {
    name: `Dostęp: Ewa Podglądająca do maszyny ${machineName}`,
  });
  await expect(access).toHaveValue('none');
  await access.selectOption('watch');
  await expect(toastWith(managerPage, `Ewa Podglądająca: podgląd maszyny ${machineName}.`)).toBeVisible();
  await expect(access).toHaveValue('watch');
  await expectAccessible(managerPage, "a farm's page, as its manager");
  await managerPage.context().close();
  // The server holds it so: Ewa watches the machine, nothing more.
  const detail = await admin.call('GET', `/api/farm/${farmId}/`);
  const held = (detail.body as { members: { email: string; grants: unknown[] }[] }).members.find(
    (member) => member.email === watcher.email,
  );
  expect(held?.grants).toEqual([{ sprinklerId: machineId, level: 'watch' }]);

  // Ewa sees the machine without anything to move it with; the farm's members are not hers to see.
  const watcherPage = await signedInPage(browser, server.baseUrl, watcher, `/sprinklers/${machineId}`);
  await expect(watcherPage.getByRole('heading', { level: 1, name: machineName })).toBeVisible();
  await expect(watcherPage.getByRole('note')).toHaveText(
    'Tylko podgląd: możesz obserwować tę maszynę, ale nie możesz nią sterować.',
  );
  await expect(watcherPage.getByRole('heading', { name: 'Programy' })).toBeVisible();
  for (const name of ['Do przodu', 'Do tyłu', 'Stop', 'Nowy program']) {
    await expect(watcherPage.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await watcherPage.goto(`/farms/${farmId}`);
  await expect(
    watcherPage.getByRole('heading', { name: 'Członków gospodarstwa widzą tylko jego właściciele i zarządcy' }),
  ).toBeVisible();
  await expect(watcherPage.getByRole('heading', { level: 1, name: farmName })).toBeVisible();
  await expect(watcherPage.getByRole('table', { name: 'Członkowie gospodarstwa' })).toHaveCount(0);
  await expectAccessible(watcherPage, "a farm's page, as a member");
  await watcherPage.context().close();
  expect(machine.state().status).toBe('stop');
});
