import { eq } from 'drizzle-orm';
import { PRODUCT_NAME } from '../../src/config';
import { mailOutbox } from '../../src/modules/mail/mail.table';
import { AccountMail } from '../../src/modules/users/account-mail';
import { linkTokens, sessions } from '../../src/modules/users/auth.table';
import { describe, expect, it } from 'vitest';
import { PUBLIC_URL, useTestApp, linkIn } from '../support/test-app';

const STRONG_PASSWORD = 'Field-Water-42!';

describe('activation and password reset by mail', () => {
  const t = useTestApp({}, { signInAdmin: true });

  async function lastMailTo(email: string): Promise<string> {
    const mails = (await t.outboxMails()).filter((mail) => mail.toLowerCase().includes(email));
    const last = mails.at(-1);
    if (!last) throw new Error(`no mail to ${email}`);
    return last;
  }

  async function createUser(email: string, language: 'pl' | 'en' = 'pl') {
    const response = await t.admin.post('/api/user/', {
      first_name: 'Marek',
      last_name: 'Wiśniewski',
      email,
      language,
    });
    expect(response.status).toBe(201);
    return response.body as { id: number };
  }

  it('mails a new user an activation link in their language; setting a password activates the account', async () => {
    const user = await createUser('marek@farm.pl', 'en');
    const mail = await lastMailTo('marek@farm.pl');
    const link = linkIn(mail, 'activation');
    expect(link.uid).toBe(user.id);
    expect(link.english).toBe(true);

    const anonymous = t.client();
    const rejected = await anonymous.post('/api/user/set-password/', {
      uid: link.uid,
      token: link.token,
      newPassword: 'weak',
      repeatNewPassword: 'weak',
    });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toMatchObject({
      code: 'password_rejected',
      newPassword: expect.arrayContaining([expect.any(String)]),
    });

    const accepted = await anonymous.post('/api/user/set-password/', {
      uid: link.uid,
      token: link.token,
      newPassword: STRONG_PASSWORD,
      repeatNewPassword: STRONG_PASSWORD,
    });
    expect(accepted.status).toBe(200);
    const signedIn = await t.client().login('marek@farm.pl', STRONG_PASSWORD);
    expect(signedIn.body).toMatchObject({ user: { activated: true } });

    // The link works once.
    const again = await anonymous.post('/api/user/set-password/', {
      uid: link.uid,
      token: link.token,
      newPassword: STRONG_PASSWORD,
      repeatNewPassword: STRONG_PASSWORD,
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'invalid_link' });
  });

  it('refuses a link with a wrong token or for another user', async () => {
    const user = await createUser('zofia@farm.pl');
    const link = linkIn(await lastMailTo('zofia@farm.pl'), 'activation');
    const body = { newPassword: STRONG_PASSWORD, repeatNewPassword: STRONG_PASSWORD };
    const forged = await t
      .client()
      .post('/api/user/set-password/', { uid: user.id, token: `${link.token.slice(0, -2)}xx`, ...body });
    expect(forged.body).toMatchObject({ code: 'invalid_link' });
    const otherUser = await t.buildUser();
    const wrongUser = await t
      .client()
      .post('/api/user/set-password/', { uid: otherUser.id, token: link.token, ...body });
    expect(wrongUser.body).toMatchObject({ code: 'invalid_link' });
  });

  it('answers "forgot password" the same whether or not the email exists, and mails only real accounts', async () => {
    const user = await t.buildUser();
    const before = (await t.outboxMails()).length;
    const known = await t.client().post('/api/user/password-email/', { email: user.email });
    const unknown = await t.client().post('/api/user/password-email/', { email: 'ghost@farm.pl' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const mails = await t.outboxMails();
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)).toContain(user.email);
  });

  it('resets a password from the mailed link; older links and other sessions stop working', async () => {
    const user = await t.buildUser();
    const session = t.client();
    await session.login(user.email, 'User-Password-1');
    await t.client().post('/api/user/password-email/', { email: user.email });
    const firstLink = linkIn(await lastMailTo(user.email), 'set-password');
    await t.client().post('/api/user/password-email/', { email: user.email });
    const secondLink = linkIn(await lastMailTo(user.email), 'set-password');
    expect(secondLink.token).not.toBe(firstLink.token);

    const body = { newPassword: STRONG_PASSWORD, repeatNewPassword: STRONG_PASSWORD };
    expect(
      (await t.client().post('/api/user/set-password/', { uid: firstLink.uid, token: firstLink.token, ...body }))
        .status,
    ).toBe(400);
    const mismatch = await t.client().post('/api/user/set-password/', {
      uid: secondLink.uid,
      token: secondLink.token,
      newPassword: STRONG_PASSWORD,
      repeatNewPassword: 'Other-pass-1!',
    });
    expect(mismatch.body).toMatchObject({ repeatNewPassword: ['Hasła muszą być takie same'] });
    expect(
      (await t.client().post('/api/user/set-password/', { uid: secondLink.uid, token: secondLink.token, ...body }))
        .status,
    ).toBe(200);

    expect((await session.get('/api/user/')).status).toBe(401);
    await t.client().login(user.email, STRONG_PASSWORD);
  });

  it('sends at most three reset mails an hour per account, still answering the same', async () => {
    const user = await t.buildUser();
    const before = (await t.outboxMails()).length;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await t.client(`198.51.100.${attempt}`).post('/api/user/password-email/', { email: user.email });
      expect(response.status).toBe(200);
      // Sent before the next request, as the woken outbox does: a reset mail still unsent when a
      // newer one replaces its link is not sent at all (the next test).
      await t.app.mail.drain();
    }
    expect((await t.outboxMails()).length).toBe(before + 3);
  });

  it('refuses an expired link', async () => {
    await createUser('late@farm.pl');
    const link = linkIn(await lastMailTo('late@farm.pl'), 'activation');
    await t.database.db
      .update(linkTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(linkTokens.userId, link.uid));
    const response = await t.client().post('/api/user/set-password/', {
      uid: link.uid,
      token: link.token,
      newPassword: STRONG_PASSWORD,
      repeatNewPassword: STRONG_PASSWORD,
    });
    expect(response.body).toMatchObject({ code: 'invalid_link' });
  });

  async function outboxRowsTo(email: string) {
    return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);
  }

  it('keeps no link token in the outbox: each is made as its mail is sent, and a retry makes a new one', async () => {
    const user = await createUser('ewa@farm.pl');
    const [queued] = await outboxRowsTo('ewa@farm.pl');
    expect(queued!.text).toMatch(new RegExp(`/activation/${user.id}/\\{\\{secret\\}\\}\n`));
    const [unsent] = await t.database.db.select().from(linkTokens).where(eq(linkTokens.userId, user.id));
    expect(unsent!.tokenHash).toBeNull();

    const first = linkIn(await lastMailTo('ewa@farm.pl'), 'activation');
    const [sent] = await outboxRowsTo('ewa@farm.pl');
    expect(sent).toMatchObject({ status: 'sent', text: queued!.text, html: queued!.html });
    // The mail goes out again, as after a send that failed half way: a new token, and only it works.
    await t.database.db
      .update(mailOutbox)
      .set({ status: 'pending', nextAttemptAt: new Date() })
      .where(eq(mailOutbox.id, sent!.id));
    const second = linkIn(await lastMailTo('ewa@farm.pl'), 'activation');
    expect(second.token).not.toBe(first.token);
    const body = { newPassword: STRONG_PASSWORD, repeatNewPassword: STRONG_PASSWORD };
    expect(
      (await t.client().post('/api/user/set-password/', { uid: user.id, token: first.token, ...body })).body,
    ).toMatchObject({ code: 'invalid_link' });
    expect(
      (await t.client().post('/api/user/set-password/', { uid: user.id, token: second.token, ...body })).status,
    ).toBe(200);
  });

  it('does not send a reset mail whose link a newer reset replaced before it went out', async () => {
    const user = await t.buildUser();
    const before = (await t.outboxMails()).length;
    // Two resets queued before the outbox sends either (as while the mail server is down).
    const accountMail = new AccountMail(t.app.mail, PUBLIC_URL, PRODUCT_NAME);
    await t.database.db.transaction(async (tx) => {
      await accountMail.queuePasswordReset(tx, user);
      await accountMail.queuePasswordReset(tx, user);
    });
    const mails = await t.outboxMails();
    expect(mails.length).toBe(before + 1);
    const rows = await outboxRowsTo(user.email);
    expect(rows.map((row) => row.status)).toEqual(['cancelled', 'sent']);
    const link = linkIn(mails.at(-1)!, 'set-password');
    const body = { newPassword: STRONG_PASSWORD, repeatNewPassword: STRONG_PASSWORD };
    expect(
      (await t.client().post('/api/user/set-password/', { uid: link.uid, token: link.token, ...body })).status,
    ).toBe(200);
  });

  it('purges used, replaced and expired links and ended sessions on its schedule', async () => {
    const used = await createUser('used@farm.pl');
    const usedLink = linkIn(await lastMailTo('used@farm.pl'), 'activation');
    const body = { newPassword: STRONG_PASSWORD, repeatNewPassword: STRONG_PASSWORD };
    await t.client().post('/api/user/set-password/', { uid: used.id, token: usedLink.token, ...body });
    const expired = await createUser('expired@farm.pl');
    await t.outboxMails();
    await t.database.db
      .update(linkTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(linkTokens.userId, expired.id));
    const live = await createUser('live@farm.pl');
    await t.outboxMails();
    const { user: signedOut, client: signedOutClient } = await t.signedInUser();
    await signedOutClient.post('/api/user/logout/');
    const { user: stillIn } = await t.signedInUser();

    await t.app.signInPurge.runNow();

    const links = await t.database.db.select({ userId: linkTokens.userId }).from(linkTokens);
    expect(links.map((link) => link.userId)).toContain(live.id);
    expect(links.map((link) => link.userId)).not.toContain(used.id);
    expect(links.map((link) => link.userId)).not.toContain(expired.id);
    const left = await t.database.db.select({ userId: sessions.userId }).from(sessions);
    expect(left.map((session) => session.userId)).toContain(stillIn.id);
    expect(left.map((session) => session.userId)).not.toContain(signedOut.id);
  });
});
