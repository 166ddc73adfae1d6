import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { USER_PASSWORD, useTestApp } from '../support/test-app';

/** Issue 12 item 15: changing one's own email takes the current password and warns the old address. */
describe('changing the own email', () => {
  const t = useTestApp();

  /** The mails of the outbox sent to this address. */
  async function mailsTo(email: string): Promise<string[]> {
    return (await t.outboxMails()).filter((mail) => new RegExp(`^To: ${email}\\r?$`, 'im').test(mail));
  }

  it('refuses without the current password, and with a wrong one, in the page language', async () => {
    const { user, client } = await t.signedInUser();
    const without = await client.patch('/api/user/', { email: `new-${user.email}` });
    expect(without.status).toBe(400);
    expect(without.body).toEqual({
      code: 'current_password_required',
      message: 'Aby zmienić email, podaj obecne hasło',
    });
    const wrong = await client.patch(
      '/api/user/',
      { email: `new-${user.email}`, current_password: 'Not-the-password-1' },
      { headers: { 'accept-language': 'en' } },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ code: 'current_password_incorrect', message: 'The current password is incorrect' });
    expect((await client.get('/api/user/')).body).toMatchObject({ email: user.email });
    expect(await mailsTo(user.email)).toEqual([]);
  });

  it('changes the email with the right password and mails a notice to the old address in the account language', async () => {
    for (const [language, subject, says] of [
      ['pl', 'Zmieniono adres email konta', 'zmieniono z'],
      ['en', 'The email of your Pivot account has changed', 'was changed from'],
    ] as const) {
      const { user, client } = await t.signedInUser({ language });
      const newEmail = `moved-${user.email}`;
      const changed = await client.patch('/api/user/', { email: newEmail, current_password: USER_PASSWORD });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ email: newEmail });
      const notices = await mailsTo(user.email);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(subject);
      expect(notices[0]).toContain(says);
      expect(notices[0]).toContain(newEmail);
      expect(await mailsTo(newEmail)).toEqual([]);
    }
  });

  it('needs no password for the other fields, nor for the same email', async () => {
    const { user, client } = await t.signedInUser();
    expect((await client.patch('/api/user/', { first_name: 'Piotr', email: user.email.toUpperCase() })).status).toBe(
      200,
    );
    expect(await mailsTo(user.email)).toEqual([]);
  });

  it("lets an administrator change a user's email without the user's password, and still warns the old address", async () => {
    const admin: ApiClient = await t.adminClient();
    const user = await t.buildUser();
    const changed = await admin.patch(`/api/user/${user.id}/`, { email: `admin-set-${user.email}` });
    expect(changed.status).toBe(200);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('makes guesses of the current password wait longer and longer', async () => {
    const { user, client } = await t.signedInUser();
    const guess = (password: string) =>
      client.patch('/api/user/', { email: `guess-${user.email}`, current_password: password });
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await guess('Wrong-pass-1')).status).toBe(403);
    const waiting = await guess(USER_PASSWORD);
    expect(waiting.status).toBe(429);
    expect(waiting.body).toMatchObject({ code: 'rate_limited' });
    expect(waiting.headers['retry-after']).toBe('1');
    // The wait counts for the password change too: both check the same password.
    const change = await client.post('/api/user/password/', {
      oldPassword: USER_PASSWORD,
      newPassword: 'Another-Password-2',
      repeatNewPassword: 'Another-Password-2',
    });
    expect(change.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await guess(USER_PASSWORD)).status).toBe(200);
  });
});
