import { HttpSession } from '../support/http-session';
import { ADMIN } from './support/environment';
import { GOOD_PASSWORD, expect, expectAccessible, signIn } from './support/fixtures';
import { addAndGrant, test } from './support/machines';

test('an administrator grants an agronomist watch on two machines: the agronomist sees them read-only, and every attempt to move one is refused', async ({
  page,
  browser,
  admin,
  server,
  createUser,
  startMachine,
}) => {
  const [north, south] = await Promise.all([startMachine(), startMachine()]);
  const agronomist = await createUser({ firstName: 'Ewa', lastName: 'Agronom' });
  const northName = `Pole ${north.id}`;
  const northId = await addAndGrant(admin, north, northName);
  const southId = await addAndGrant(admin, south, `Pole ${south.id}`);

  // The first machine from its row of the machines table, Watch picked in the grant dialog.
  await signIn(page, ADMIN, '/admin/sprinklers');
  await page.getByRole('searchbox', { name: 'Szukaj', exact: true }).fill(north.id);
  const row = page.getByRole('table', { name: 'Maszyny' }).getByRole('row').filter({ hasText: north.id });
  await row.getByRole('button', { name: `Przydziel maszynę ${northName} użytkownikowi` }).click();
  const grant = page.getByRole('dialog', { name: `Przydziel maszynę ${northName} użytkownikowi` });
  await grant.getByRole('searchbox', { name: 'Szukaj użytkowników' }).fill(agronomist.email);
  await grant.getByRole('radio', { name: /Ewa Agronom/ }).check();
  await expect(grant.getByRole('radio', { name: /^Sterowanie/ })).toBeChecked();
  await grant.getByRole('radio', { name: /^Podgląd/ }).check();
  await expectAccessible(page, 'grant dialog with a level');
  await grant.getByRole('button', { name: 'Przydziel dostęp' }).click();
  await expect(grant).toBeHidden();
  const level = row.getByRole('combobox', { name: `Poziom dostępu użytkownika Ewa Agronom do maszyny ${northName}` });
  await expect(level).toHaveValue('watch');

  // The second one through the API, as a script would; the user's row shows both as watch.
  const granted = await admin.call('PATCH', `/api/sprinkler/${southId}/permissions/`, {
    user: agronomist.id,
    action: 'grant',
    level: 'watch',
  });
  expect(granted.status).toBe(200);
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Szukaj', exact: true }).fill(agronomist.email);
  const userRow = page
    .getByRole('table', { name: 'Użytkownicy' })
    .getByRole('row')
    .filter({ hasText: agronomist.email });
  await expect(userRow.getByRole('combobox', { name: /^Poziom dostępu użytkownika Ewa Agronom/ })).toHaveCount(2);
  for (const picker of await userRow.getByRole('combobox').all()) await expect(picker).toHaveValue('watch');

  // The agronomist sees the machine, with one line saying why there is nothing to press.
  const context = await browser.newContext({ baseURL: server.baseUrl, locale: 'pl-PL', serviceWorkers: 'block' });
  const agronomistPage = await context.newPage();
  await signIn(agronomistPage, agronomist, `/sprinklers/${northId}`);
  await expect(agronomistPage.getByRole('heading', { level: 1, name: northName })).toBeVisible();
  await expect(agronomistPage.getByRole('note')).toHaveText(
    'Tylko podgląd: możesz obserwować tę maszynę, ale nie możesz nią sterować.',
  );
  await expect(agronomistPage.getByRole('heading', { name: 'Programy' })).toBeVisible();
  await expect(agronomistPage.getByRole('heading', { name: 'Ruch' })).toHaveCount(0);
  for (const name of ['Do przodu', 'Do tyłu', 'Stop', 'Nowy program']) {
    await expect(agronomistPage.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expectAccessible(agronomistPage, 'machine page, view only');
  await context.close();

  // From curl alike: refused with the reason, in the language asked for.
  const session = new HttpSession(server.baseUrl);
  await session.login(agronomist.email, GOOD_PASSWORD);
  for (const id of [northId, southId]) {
    const moved = await session.call('POST', `/api/sprinkler/${id}/motion`, { motion: 'front' });
    expect(moved).toEqual({
      status: 403,
      body: { code: 'watch_only', message: 'Możesz tylko podglądać tę maszynę: poproś administratora o sterowanie' },
    });
  }
  const inEnglish = await session.call(
    'POST',
    `/api/sprinkler/${northId}/motion`,
    { motion: 'stop' },
    {
      'accept-language': 'en',
    },
  );
  expect(inEnglish.body).toEqual({
    code: 'watch_only',
    message: 'You can only watch this machine: ask an administrator for control',
  });
  // Seeing is not refused: both machines, their details and the log.
  const machines = await session.call('GET', '/api/sprinkler/');
  expect((machines.body as { id: number }[]).map((machine) => machine.id).sort((a, b) => a - b)).toEqual(
    [northId, southId].sort((a, b) => a - b),
  );
  expect((await session.call('GET', `/api/sprinkler/${southId}/`)).body).toMatchObject({ level: 'watch' });
  expect((await session.call('GET', '/api/logs/')).status).toBe(200);
  const program = await session.call('POST', `/api/sprinkler/${northId}/program/`, {
    name: 'Próba',
    programData: { type: 'FeatureCollection', features: [] },
  });
  expect(program.status).toBe(403);
  // The machines stood still throughout.
  expect(north.state().status).toBe('stop');
  expect(south.state().status).toBe('stop');
});
