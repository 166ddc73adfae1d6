import type { Page } from '@playwright/test';
import { HttpSession } from '../support/http-session';
import { mailedLinkPath, waitForMail } from '../support/outbox';
import {
  GOOD_PASSWORD,
  type TestUser,
  expect,
  expectAccessible,
  signIn,
  toastWith,
  uniqueEmail,
} from './support/fixtures';
import { addAndGrant, test } from './support/machines';

type Farm = { id: number; name: string };

/**
 * A farm made by the administrator, with an owner of its own signed in over the API: the one who
 * invites (docs/roles.md, "Invitations").
 */
async function farmWithOwner(admin: HttpSession, baseUrl: string, owner: TestUser): Promise<[Farm, HttpSession]> {
  const name = `Farm ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await admin.call('POST', '/api/farm/', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const farm = created.body as Farm;
  const added = await admin.call('POST', `/api/farm/${farm.id}/members/`, { email: owner.email, role: 'owner' });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const session = new HttpSession(baseUrl);
  await session.login(owner.email, owner.password);
  return [farm, session];
}

/** Invites an address in a role; the mail comes in the language of the inviter's page. */
async function invite(owner: HttpSession, farm: Farm, email: string, role: string, language: 'pl' | 'en') {
  const sent = await owner.call(
    'POST',
    `/api/farm/${farm.id}/invitations/`,
    { email, role },
    {
      'accept-language': language,
    },
  );
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
}

/** The farms an account belongs to, with its role in each, as the API tells it once signed in. */
async function farmsOf(baseUrl: string, email: string, password: string) {
  const session = new HttpSession(baseUrl);
  await session.login(email, password);
  return (await session.call('GET', '/api/farm/')).body as { id: number; name: string; role: string }[];
}

test('a new person accepts an invitation from the mail with their names and a password, then signs in', async ({
  page,
  admin,
  server,
  createUser,
}) => {
  const [farm, owner] = await farmWithOwner(admin, server.baseUrl, await createUser());
  const email = uniqueEmail('invited');
  await invite(owner, farm, email, 'manager', 'en');
  const link = mailedLinkPath(await waitForMail(server.dataDir, email, '/invitation/'), 'invitation');
  expect(link).toMatch(/^\/en\/invitation\/\d+\//);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Invitation to a farm' })).toBeVisible();
  await expect(page.getByText(`${farm.name} invites you as a manager`)).toBeVisible();
  await expect(page.getByRole('definition')).toHaveText(email);
  await expectAccessible(page, "a new person's invitation");
  await page.getByLabel('First name').fill('Nowa');
  await page.getByLabel('Last name').fill('Osoba');
  await page.getByLabel('New password', { exact: true }).fill('short');
  await expect(page.getByText('at least 8 characters')).not.toHaveClass(/text-success/);
  await page.getByLabel('New password', { exact: true }).fill(GOOD_PASSWORD);
  await expect(page.getByText('at least 8 characters').locator('..')).toHaveClass(/text-success/);
  await page.getByLabel('Repeat the new password').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Accept the invitation' }).click();

  await expect(page.getByRole('status').filter({ hasText: `You joined ${farm.name}` })).toBeVisible();
  await expect(page).toHaveURL('/en/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hello, Nowa' })).toBeVisible();
  expect(await farmsOf(server.baseUrl, email, GOOD_PASSWORD)).toMatchObject([{ id: farm.id, role: 'manager' }]);

  // The link worked once: opened again, it says so and leads to the login.
  await page.goto(link);
  await expect(page.getByRole('alert')).toContainText(
    'This invitation link no longer works: ask the farm for a new one.',
  );
  await expect(page.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/en/login');
  await expectAccessible(page, 'a used invitation');
});

test('a person with an account accepts with its password, a wrong one told first', async ({
  page,
  admin,
  server,
  createUser,
}) => {
  const [farm, owner] = await farmWithOwner(admin, server.baseUrl, await createUser());
  const known = await createUser({ firstName: 'Anna' });
  await invite(owner, farm, known.email, 'member', 'pl');
  const link = mailedLinkPath(await waitForMail(server.dataDir, known.email, '/invitation/'), 'invitation');
  expect(link).toMatch(/^\/invitation\/\d+\//);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Zaproszenie do gospodarstwa' })).toBeVisible();
  await expect(page.getByText(`${farm.name} zaprasza Cię jako członka`)).toBeVisible();
  await expect(page.getByRole('definition')).toHaveText(known.email);
  await expect(page.getByLabel('Imię')).toHaveCount(0);
  const password = page.getByLabel('Potwierdź swoim hasłem');
  await password.fill('Not-the-password-1');
  await page.getByRole('button', { name: 'Przyjmij zaproszenie' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'To nie jest hasło tego konta' })).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'an invitation refusing a wrong password');
  await expect(page).toHaveURL(link);

  await password.fill(known.password);
  await page.getByRole('button', { name: 'Przyjmij zaproszenie' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Dołączono do gospodarstwa ${farm.name}` })).toBeVisible();
  await expect(page).toHaveURL('/login');
  await page.getByLabel('Email').fill(known.email);
  await page.getByLabel('Hasło', { exact: true }).fill(known.password);
  await page.getByRole('button', { name: 'Zaloguj się' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dzień dobry, Anna' })).toBeVisible();
  expect(await farmsOf(server.baseUrl, known.email, known.password)).toMatchObject([{ id: farm.id, role: 'member' }]);
});

test("a farm's owner invites a manager, who joins, invites a member and grants them watch of the farm's machine", async ({
  page,
  browser,
  admin,
  server,
  createUser,
  startMachine,
}) => {
  test.setTimeout(120_000);
  const owner = await createUser({ firstName: 'Olga', lastName: 'Właścicielka' });
  const [farm] = await farmWithOwner(admin, server.baseUrl, owner);
  const machine = await startMachine();
  const machineName = `Pole ${machine.id}`;
  const machineId = await addAndGrant(admin, machine, machineName);
  expect((await admin.call('PATCH', `/api/sprinkler/${machineId}/farm/`, { farmId: farm.id })).status).toBe(200);

  /** The farm page's invite form, filled and sent: the invited address gets its link. */
  const inviteOn = async (inviter: Page, email: string, role: string) => {
    const form = inviter.getByRole('region', { name: 'Zaproś osobę' });
    await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await form.getByRole('combobox', { name: 'Rola' }).selectOption({ label: role });
    await form.getByRole('button', { name: 'Wyślij zaproszenie' }).click();
    await expect(toastWith(inviter, `${email} ma zaproszenie do gospodarstwa: ${role}.`)).toBeVisible();
    return mailedLinkPath(await waitForMail(server.dataDir, email, '/invitation/'), 'invitation');
  };
  /** A new person's acceptance of a link, then their sign-in: their page at the farm's. */
  const joinAsNewPerson = async (link: string, email: string, firstName: string) => {
    const joining = await browser.newPage({ baseURL: server.baseUrl });
    await joining.goto(link);
    await joining.getByLabel('Imię').fill(firstName);
    await joining.getByLabel('Nazwisko').fill('Zaproszona');
    await joining.getByLabel('Nowe hasło', { exact: true }).fill(GOOD_PASSWORD);
    await joining.getByLabel('Powtórz nowe hasło').fill(GOOD_PASSWORD);
    await joining.getByRole('button', { name: 'Przyjmij zaproszenie' }).click();
    await expect(
      joining.getByRole('status').filter({ hasText: `Dołączono do gospodarstwa ${farm.name}` }),
    ).toBeVisible();
    await joining.getByLabel('Email').fill(email);
    await joining.getByLabel('Hasło', { exact: true }).fill(GOOD_PASSWORD);
    await joining.getByRole('button', { name: 'Zaloguj się' }).click();
    await expect(joining.getByRole('heading', { level: 1, name: `Dzień dobry, ${firstName}` })).toBeVisible();
    return joining;
  };

  // The owner invites a manager from the farm's page.
  await signIn(page, owner, `/farms/${farm.id}`);
  const managerEmail = uniqueEmail('manager');
  const managerLink = await inviteOn(page, managerEmail, 'Zarządca');
  const managerPage = await joinAsNewPerson(managerLink, managerEmail, 'Marta');

  // The manager, new to the farm, invites a member; a manager may not invite an owner.
  await managerPage.goto(`/farms/${farm.id}`);
  await expect(managerPage.getByText('Twoja rola: Zarządca')).toBeVisible();
  const roles = managerPage.getByRole('region', { name: 'Zaproś osobę' }).getByRole('combobox', { name: 'Rola' });
  await expect(roles.getByRole('option', { name: 'Właściciel' })).toHaveCount(0);
  const memberEmail = uniqueEmail('member');
  const memberLink = await inviteOn(managerPage, memberEmail, 'Członek');
  const memberPage = await joinAsNewPerson(memberLink, memberEmail, 'Ewa');

  // The manager grants the new member watch of the farm's machine.
  await managerPage.reload();
  const access = managerPage
    .getByRole('table', { name: 'Członkowie gospodarstwa' })
    .getByRole('row')
    .filter({ hasText: memberEmail })
    .getByRole('combobox', { name: `Dostęp: Ewa Zaproszona do maszyny ${machineName}` });
  await access.selectOption('watch');
  await expect(toastWith(managerPage, `Ewa Zaproszona: podgląd maszyny ${machineName}.`)).toBeVisible();

  // The member watches the machine, with nothing to move it with.
  await memberPage.goto(`/sprinklers/${machineId}`);
  await expect(memberPage.getByRole('heading', { level: 1, name: machineName })).toBeVisible();
  await expect(memberPage.getByRole('note')).toHaveText(
    'Tylko podgląd: możesz obserwować tę maszynę, ale nie możesz nią sterować.',
  );
  await expect(memberPage.getByRole('button', { name: 'Do przodu', exact: true })).toHaveCount(0);
  // Each step is in the farm's log, which the owner reads.
  const log = (await admin.call('GET', `/api/logs/?farm=${farm.id}&pageSize=50`)).body as {
    data: { eventType: string; event: string | null }[];
  };
  expect(log.data.map((entry) => entry.eventType)).toEqual(
    expect.arrayContaining(['farm_invitation_sent', 'farm_member_added', 'sprinkler_access_granted']),
  );
  await Promise.all([managerPage.context().close(), memberPage.context().close()]);
  expect(machine.state().status).toBe('stop');
});
