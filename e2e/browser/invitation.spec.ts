import { HttpSession } from '../support/http-session';
import { mailedLinkPath, waitForMail } from '../support/outbox';
import { GOOD_PASSWORD, type TestUser, expect, expectAccessible, test, uniqueEmail } from './support/fixtures';

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
