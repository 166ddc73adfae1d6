import { ADMIN } from './support/environment';
import { expect, expectAccessible, signIn, signedInPage, toastWith } from './support/fixtures';
import { addAndGrant, test } from './support/machines';

test("a farm's owner grants a dealer control of all its machines, the dealer's member sees the farm in the fleet, and the owner revokes it", async ({
  page,
  browser,
  server,
  admin,
  createUser,
  startMachine,
}) => {
  test.setTimeout(120_000);
  const [owner, servicer] = await Promise.all([
    createUser({ firstName: 'Olga', lastName: 'Właścicielka' }),
    createUser({ firstName: 'Sebastian', lastName: 'Serwisant' }),
  ]);
  const machine = await startMachine();
  const machineName = `Pole ${machine.id}`;
  const machineId = await addAndGrant(admin, machine, machineName);
  const farmName = `Gospodarstwo ${machine.id}`;
  const dealerName = `Serwis ${machine.id}`;

  // Through the API the administrator makes the farm with its owner and machine, and the dealer with its member.
  const farm = await admin.call('POST', '/api/farm/', { name: farmName });
  expect(farm.status, JSON.stringify(farm.body)).toBe(201);
  const farmId = (farm.body as { id: number }).id;
  expect((await admin.call('POST', `/api/farm/${farmId}/members/`, { email: owner.email, role: 'owner' })).status).toBe(
    201,
  );
  expect((await admin.call('PATCH', `/api/sprinkler/${machineId}/farm/`, { farmId })).status).toBe(200);
  const dealer = await admin.call('POST', '/api/dealer/', { name: dealerName });
  expect(dealer.status, JSON.stringify(dealer.body)).toBe(201);
  const dealerId = (dealer.body as { id: number }).id;
  expect((await admin.call('POST', `/api/dealer/${dealerId}/members/`, { email: servicer.email })).status).toBe(204);

  // Before any grant the dealer's member has no fleet in the account menu.
  const servicerPage = await signedInPage(browser, server.baseUrl, servicer, '/dealer');
  await expect(servicerPage.getByText('Żadne gospodarstwo nie udostępniło maszyn Twojemu serwisowi.')).toBeVisible();

  // The owner grants the dealer control of all the farm's machines, until revoked.
  await signIn(page, owner, `/farms/${farmId}`);
  await expect(page.getByRole('heading', { level: 1, name: farmName })).toBeVisible();
  const grants = page.getByRole('table', { name: 'Dostęp serwisów' });
  await expect(grants).toContainText('Żaden serwis nie ma dostępu do maszyn gospodarstwa.');
  const form = page.getByRole('region', { name: 'Udostępnij maszyny serwisowi' });
  await form.getByRole('combobox', { name: 'Serwis' }).selectOption({ label: dealerName });
  await form.getByRole('combobox', { name: 'Dostęp' }).selectOption('control');
  await form.getByRole('button', { name: 'Udostępnij' }).click();
  await expect(
    toastWith(page, `Serwis ${dealerName} może teraz sterować maszynami gospodarstwa ${farmName}.`),
  ).toBeVisible();
  const grant = grants.getByRole('row').filter({ hasText: dealerName });
  await expect(grant).toContainText('Sterowanie');
  await expect(grant).toContainText('Wszystkie maszyny gospodarstwa');
  await expect(grant).toContainText('Do odwołania');
  await expectAccessible(page, "a farm's page with a dealer's grant, as its owner");

  // The dealer's member finds the fleet in the account menu, with the farm and its machine.
  await servicerPage.reload();
  await servicerPage.getByRole('button', { name: 'Menu konta: Sebastian Serwisant' }).click();
  await servicerPage.getByRole('menuitem', { name: 'Flota serwisu' }).click();
  await expect(servicerPage).toHaveURL(/\/dealer$/);
  const card = servicerPage.getByRole('region', { name: farmName });
  await expect(card).toContainText(`Udostępnione serwisowi ${dealerName}`);
  await expect(card).toContainText('Sterowanie');
  await expect(card).toContainText('Dostęp do odwołania przez gospodarstwo');
  await expect(card.getByRole('definition').first()).toHaveText('1');
  await expectAccessible(servicerPage, "a dealer's fleet");

  // The dealer's member has the farm's machine open when the owner revokes.
  const machinePage = await signedInPage(browser, server.baseUrl, servicer, `/sprinklers/${machineId}`);
  await expect(machinePage.getByRole('heading', { level: 1, name: machineName })).toBeVisible();
  await expect(machinePage.getByRole('button', { name: 'Do przodu', exact: true })).toBeVisible();

  // The owner revokes it after a question; after a reload the dealer's fleet is empty.
  await grant.getByRole('button', { name: `Odbierz dostęp serwisowi ${dealerName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Odebrać dostęp serwisowi ${dealerName}?` });
  await dialog.getByRole('button', { name: 'Odbierz' }).click();
  await expect(toastWith(page, `Serwis ${dealerName} nie ma już dostępu do gospodarstwa ${farmName}`)).toBeVisible();
  await expect(grants.getByRole('row').filter({ hasText: dealerName })).toHaveCount(0);
  // The open machine page stops at once, without a reload: its stream ends and the page says why.
  await expect(machinePage.getByText('Ta maszyna nie istnieje albo nie masz do niej dostępu.')).toBeVisible();
  await expect(machinePage.getByRole('button', { name: 'Do przodu', exact: true })).toHaveCount(0);
  await machinePage.context().close();

  await servicerPage.reload();
  await expect(servicerPage.getByText('Żadne gospodarstwo nie udostępniło maszyn Twojemu serwisowi.')).toBeVisible();
  await expect(servicerPage.getByRole('region', { name: farmName })).toHaveCount(0);
  await servicerPage.getByRole('button', { name: 'Menu konta: Sebastian Serwisant' }).click();
  await expect(servicerPage.getByRole('menuitem', { name: 'Aktywność' })).toBeVisible();
  await expect(servicerPage.getByRole('menuitem', { name: 'Flota serwisu' })).toHaveCount(0);
  await servicerPage.context().close();
});

test("a farm's owner invites an address, sees it waiting, and revokes it", async ({ page, admin, createUser }) => {
  const owner = await createUser({ firstName: 'Olga', lastName: 'Właścicielka' });
  const farm = await admin.call('POST', '/api/farm/', { name: `Gospodarstwo ${owner.id}` });
  expect(farm.status, JSON.stringify(farm.body)).toBe(201);
  const farmId = (farm.body as { id: number }).id;
  expect((await admin.call('POST', `/api/farm/${farmId}/members/`, { email: owner.email, role: 'owner' })).status).toBe(
    201,
  );
  const invited = `zaproszony.${owner.id}@example.com`;

  await signIn(page, owner, `/farms/${farmId}`);
  const waiting = page.getByRole('table', { name: 'Oczekujące zaproszenia' });
  await expect(waiting).toContainText('Żadne zaproszenie nie czeka.');
  const invite = page.getByRole('region', { name: 'Zaproś osobę' });
  await invite.getByRole('textbox', { name: 'E-mail' }).fill(invited);
  await invite.getByRole('combobox', { name: 'Rola' }).selectOption('manager');
  await invite.getByRole('button', { name: 'Wyślij zaproszenie' }).click();
  await expect(toastWith(page, `${invited} ma zaproszenie do gospodarstwa: Zarządca.`)).toBeVisible();
  const row = waiting.getByRole('row').filter({ hasText: invited });
  await expect(row).toContainText('Zarządca');
  await expect(invite.getByRole('textbox', { name: 'E-mail' })).toHaveValue('');

  // The same address again is the user's to correct: a warning.
  await invite.getByRole('textbox', { name: 'E-mail' }).fill(invited);
  await invite.getByRole('button', { name: 'Wyślij zaproszenie' }).click();
  await expect(toastWith(page, 'Już zaproszono', 'alert')).toHaveAttribute('data-variant', 'warning');
  await expectAccessible(page, "a farm's page with an invitation waiting");

  await row.getByRole('button', { name: `Odwołaj zaproszenie dla ${invited}` }).click();
  await page
    .getByRole('dialog', { name: `Odwołać zaproszenie dla ${invited}?` })
    .getByRole('button', { name: 'Odwołaj' })
    .click();
  await expect(toastWith(page, `Zaproszenie dla ${invited} odwołano`)).toBeVisible();
  await expect(waiting.getByRole('row').filter({ hasText: invited })).toHaveCount(0);
  const listed = await admin.call('GET', `/api/farm/${farmId}/invitations/`);
  expect(listed.body).toEqual([]);
});

test("a dealer's fleet card counts the farm's open incidents and opens its machines; the administrator removes the dealer's member", async ({
  page,
  browser,
  server,
  admin,
  createUser,
  startMachine,
}) => {
  test.setTimeout(120_000);
  const servicer = await createUser({ firstName: 'Sebastian', lastName: 'Serwisant' });
  // Quick to raise its pressure-loss alarm: its safety stops it a second after the water is cut.
  const machine = await startMachine({ motion: 'front', pressureSafetyDelayMs: 1000 });
  const machineName = `Pole ${machine.id}`;
  const machineId = await addAndGrant(admin, machine, machineName);
  const farmName = `Gospodarstwo ${machine.id}`;
  const dealerName = `Serwis ${machine.id}`;
  const farm = await admin.call('POST', '/api/farm/', { name: farmName });
  const farmId = (farm.body as { id: number }).id;
  expect((await admin.call('PATCH', `/api/sprinkler/${machineId}/farm/`, { farmId })).status).toBe(200);
  const dealer = await admin.call('POST', '/api/dealer/', { name: dealerName });
  const dealerId = (dealer.body as { id: number }).id;
  expect((await admin.call('POST', `/api/dealer/${dealerId}/members/`, { email: servicer.email })).status).toBe(204);
  const granted = await admin.call('PUT', `/api/farm/${farmId}/dealers/${dealerId}/`, {
    level: 'watch',
    machines: 'all',
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);

  // The machine loses its water: its alarm is an open incident on the farm's card.
  machine.cutWater();
  const servicerPage = await signedInPage(browser, server.baseUrl, servicer, '/dealer');
  const card = servicerPage.getByRole('region', { name: farmName });
  await expect(async () => {
    await servicerPage.reload();
    await expect(card.getByRole('definition').nth(4)).toHaveText('1', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  // No autopilot in auto has put a start off on the farm's machine.
  await expect(card.getByRole('term').nth(4)).toHaveText('Otwarte zdarzenia');
  await expect(card.getByRole('term').nth(5)).toHaveText('Następne nawadnianie');
  await expect(card.getByRole('definition').nth(5)).toHaveText('Nic nie zaplanowano');

  // Its Machines link switches the machines table to the farm.
  await card.getByRole('link', { name: `Maszyny gospodarstwa ${farmName}` }).click();
  await expect(servicerPage).toHaveURL(/\/sprinklers$/);
  await expect(servicerPage.getByRole('combobox', { name: 'Gospodarstwo' })).toHaveValue(String(farmId));
  await expect(servicerPage.getByRole('table', { name: 'Maszyny' })).toContainText(machineName);

  // The administrator removes the member from the dealer after a question; their fleet is then empty.
  await signIn(page, ADMIN, '/farms');
  const members = page.getByRole('table', { name: `Członkowie serwisu ${dealerName}` });
  await members
    .getByRole('row')
    .filter({ hasText: servicer.email })
    .getByRole('button', { name: 'Usuń Sebastian Serwisant z serwisu' })
    .click();
  await page.getByRole('dialog', { name: 'Usunąć Sebastian Serwisant?' }).getByRole('button', { name: 'Usuń' }).click();
  await expect(toastWith(page, `Sebastian Serwisant nie jest już członkiem serwisu ${dealerName}`)).toBeVisible();
  await expect(members).toContainText('Serwis nie ma jeszcze członków.');
  await expectAccessible(page, "the administrator's dealers with their members");

  await servicerPage.goto('/dealer');
  await expect(servicerPage.getByText('Żadne gospodarstwo nie udostępniło maszyn Twojemu serwisowi.')).toBeVisible();
  await servicerPage.context().close();
});
