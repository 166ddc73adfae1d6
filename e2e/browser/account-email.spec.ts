import { waitForMail } from '../support/outbox';
import { expect, signIn, test, uniqueEmail } from './support/fixtures';

test('changing the email asks for the current password, says when it is wrong, and warns the old address', async ({
  page,
  createUser,
  server,
}) => {
  // An English account on a Polish page: the form speaks the page's language, the mail the account's.
  const user = await createUser({ language: 'en' });
  const newEmail = uniqueEmail('moved');
  await signIn(page, user, '/dashboard/account');
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Zapisz zmiany' }) });
  const currentPassword = form.getByLabel('Obecne hasło');

  await expect(form.getByLabel('Email')).toHaveValue(user.email);
  await expect(currentPassword).toHaveCount(0);
  await form.getByLabel('Email').fill(newEmail);
  await expect(currentPassword).toBeVisible();
  await form.getByRole('button', { name: 'Zapisz zmiany' }).click();
  await expect(currentPassword).toHaveAccessibleDescription(/To pole jest wymagane/);

  await currentPassword.fill('Not-my-password-1');
  await form.getByRole('button', { name: 'Zapisz zmiany' }).click();
  await expect(currentPassword).toHaveAccessibleDescription(/Obecne hasło jest nieprawidłowe/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Back to the saved email, the field goes away: only a new email needs the password.
  await form.getByLabel('Email').fill(user.email);
  await expect(currentPassword).toHaveCount(0);

  await page.goto('/en/dashboard/account');
  const english = page.locator('form').filter({ has: page.getByRole('button', { name: 'Save changes' }) });
  const englishPassword = english.getByLabel('Current password');
  await english.getByLabel('First name').fill('Stefan');
  await english.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your details are saved' })).toBeVisible();

  await english.getByLabel('Email').fill(newEmail);
  await englishPassword.fill('Not-my-password-1');
  await english.getByRole('button', { name: 'Save changes' }).click();
  await expect(englishPassword).toHaveAccessibleDescription(/The current password is incorrect/);

  await englishPassword.fill(user.password);
  await english.getByRole('button', { name: 'Save changes' }).click();
  await expect(englishPassword).toHaveCount(0);
  await expect(english.getByLabel('Email')).toHaveValue(newEmail);

  const notice = await waitForMail(server.dataDir, `To: ${user.email}`, 'has changed');
  expect(notice).toContain(newEmail);
});
