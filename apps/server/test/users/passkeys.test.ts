import { LogListResponseSchema, MAX_PASSKEYS, type Passkey } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passkeys } from '../../src/modules/users/passkeys.table';
import { totpCode } from '../../src/modules/users/totp';
import type { ApiClient } from '../support/api-client';
import { SoftwareAuthenticator } from '../support/software-authenticator';
import { ADMIN_EMAIL, ADMIN_PASSWORD, PUBLIC_URL, USER_PASSWORD, useTestApp } from '../support/test-app';

type Challenge = { secondFactor: { challenge: string; methods: string[] } };
type Options = { options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] } };

describe('passkeys as a second factor', () => {
  // The administrators of this server must use a second factor: a passkey alone must do.
  const t = useTestApp({ REQUIRE_ADMIN_2FA: 'true' }, { signInAdmin: true });

  /** An authenticator of the server's relying party: PUBLIC_URL's host, answering from its origin. */
  const newAuthenticator = () => new SoftwareAuthenticator(PUBLIC_URL, new URL(PUBLIC_URL).hostname);

  async function addPasskey(client: ApiClient, password = USER_PASSWORD, name = 'Laptop') {
    const options = await client.post('/api/user/passkeys/options/', { password });
    expect(options.status).toBe(200);
    const authenticator = newAuthenticator();
    const added = await client.post('/api/user/passkeys/', {
      name,
      response: authenticator.register((options.body as Options).options.challenge),
    });
    expect(added.status).toBe(201);
    return { authenticator, passkey: added.body as Passkey };
  }

  /** A right password's challenge, and the WebAuthn challenge of its passkey prompt. */
  async function passkeyPrompt(browser: ApiClient, email: string, password = USER_PASSWORD) {
    const login = await browser.post('/api/user/login/', { email, password });
    expect(login.status).toBe(200);
    const { challenge, methods } = (login.body as Challenge).secondFactor;
    const options = await browser.post('/api/user/login/passkey/', { challenge });
    expect(options.status).toBe(200);
    return { challenge, methods, options: (options.body as Options).options };
  }

  async function logEntries(email: string) {
    const log = LogListResponseSchema.parse((await t.admin.get('/api/logs/', { query: { pageSize: 100 } })).body);
    return log.data.filter((entry) => entry.event === email).map((entry) => [entry.eventType, entry.details]);
  }

  it('lets an administrator who must use a second factor in with a passkey alone, keeps the last one, not the app beside it', async () => {
    expect((await t.admin.get('/api/logs/')).body).toMatchObject({ code: 'second_factor_required' });
    expect((await t.admin.get('/api/user/passkeys/')).body).toEqual([]);
    expect((await t.admin.post('/api/user/passkeys/options/', { password: 'Wrong-pass-1!' })).body).toMatchObject({
      code: 'current_password_incorrect',
    });

    const { authenticator, passkey } = await addPasskey(t.admin, ADMIN_PASSWORD, 'Phone');
    expect(passkey).toEqual({
      id: expect.any(Number),
      name: 'Phone',
      created_at: expect.any(String),
      last_used_at: null,
    });
    expect((await t.admin.get('/api/logs/')).status).toBe(200);
    expect(await logEntries(ADMIN_EMAIL)).toContainEqual(['user_passkey_added', 'Phone']);

    const removeLast = await t.admin.delete(`/api/user/passkeys/${passkey.id}/`);
    expect(removeLast.status).toBe(403);
    expect(removeLast.body).toMatchObject({ code: 'second_factor_required' });
    expect((await t.admin.get('/api/user/passkeys/')).body).toHaveLength(1);

    // Signing in again asks for it, and it answers.
    const browser = t.client();
    const prompt = await passkeyPrompt(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(prompt.methods).toEqual(['passkey']);
    const signedIn = await browser.post('/api/user/login/second-factor/', {
      challenge: prompt.challenge,
      passkey: authenticator.assert(prompt.options.challenge),
    });
    expect(signedIn.status).toBe(200);

    // With the passkey kept, the app may come and go: one second factor is left.
    const setup = await t.admin.post('/api/user/second-factor/setup/', { password: ADMIN_PASSWORD });
    const confirmed = await t.admin.post('/api/user/second-factor/', {
      code: totpCode((setup.body as { secret: string }).secret, Date.now()),
    });
    expect(confirmed.status).toBe(200);
    expect((await passkeyPrompt(t.client(), ADMIN_EMAIL, ADMIN_PASSWORD)).methods).toEqual(['code', 'passkey']);
    const appOff = await t.admin.post('/api/user/second-factor/disable/', { password: ADMIN_PASSWORD });
    expect(appOff.status).toBe(200);
  });

  it('signs in with a passkey after the password; a copy of an answer and an old counter are refused', async () => {
    const { user, client } = await t.signedInUser();
    const { authenticator, passkey } = await addPasskey(client);
    const browser = t.client();
    const prompt = await passkeyPrompt(browser, user.email);
    expect(prompt.methods).toEqual(['passkey']);
    expect(prompt.options.rpId).toBe('pivot.test');
    expect(prompt.options.allowCredentials?.map((allowed) => allowed.id)).toEqual([authenticator.credentialId]);

    const answer = authenticator.assert(prompt.options.challenge);
    const signedIn = await browser.post('/api/user/login/second-factor/', {
      challenge: prompt.challenge,
      passkey: answer,
      rememberBrowser: false,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ user: { id: user.id }, access: expect.any(String) });
    expect(await logEntries(user.email)).toContainEqual(['user_passkey_used', 'Laptop']);
    const [listed] = (await client.get('/api/user/passkeys/')).body as Passkey[];
    expect(listed).toMatchObject({ id: passkey.id, last_used_at: expect.any(String) });
    // The same answer again: its challenge is spent.
    const copied = await browser.post('/api/user/login/second-factor/', {
      challenge: prompt.challenge,
      passkey: answer,
    });
    expect(copied.body).toMatchObject({ code: 'second_factor_challenge_expired' });

    // A fresh prompt signed with the counter already seen (a cloned key, a replayed signature): refused.
    const again = t.client();
    const next = await passkeyPrompt(again, user.email);
    const replayed = await again.post('/api/user/login/second-factor/', {
      challenge: next.challenge,
      passkey: authenticator.assert(next.options.challenge, { counter: authenticator.counter }),
    });
    expect(replayed.status).toBe(403);
    expect(replayed.body).toMatchObject({ code: 'passkey_rejected' });
    const moved = await again.post('/api/user/login/second-factor/', {
      challenge: next.challenge,
      passkey: authenticator.assert(next.options.challenge),
    });
    expect(moved.status).toBe(200);
  });

  it("refuses an answer made for another origin, another prompt's challenge, and another account's passkey", async () => {
    const owner = await t.signedInUser();
    const { authenticator } = await addPasskey(owner.client);
    const other = await t.signedInUser();
    const othersKey = await addPasskey(other.client);

    const browser = t.client();
    const prompt = await passkeyPrompt(browser, owner.user.email);
    const refusals = [
      authenticator.assert(prompt.options.challenge, { origin: 'https://pivot.example' }),
      authenticator.assert('bm90LXRoZS1wcm9tcHRzLWNoYWxsZW5nZQ'),
      othersKey.authenticator.assert(prompt.options.challenge),
    ];
    for (const passkey of refusals) {
      const refused = await browser.post('/api/user/login/second-factor/', { challenge: prompt.challenge, passkey });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'passkey_rejected' });
    }
    // Nor may the other account remove it.
    const [ownersPasskey] = (await owner.client.get('/api/user/passkeys/')).body as Passkey[];
    const removeOthers = await other.client.delete(`/api/user/passkeys/${ownersPasskey!.id}/`);
    expect(removeOthers.status).toBe(404);
    expect(removeOthers.body).toMatchObject({ code: 'passkey_not_found' });
    // The prompt is still good for the right answer.
    const signedIn = await browser.post('/api/user/login/second-factor/', {
      challenge: prompt.challenge,
      passkey: authenticator.assert(prompt.options.challenge),
    });
    expect(signedIn.status).toBe(200);
  });

  it('counts wrong answers as wrong codes: the fifth spends the challenge, then the account waits', async () => {
    const { user, client } = await t.signedInUser();
    const { authenticator } = await addPasskey(client);
    const browser = t.client();
    const prompt = await passkeyPrompt(browser, user.email);
    const wrong = () => authenticator.assert(prompt.options.challenge, { origin: 'https://pivot.example' });
    for (let attempt = 1; attempt <= 4; attempt++) {
      const refused = await browser.post('/api/user/login/second-factor/', {
        challenge: prompt.challenge,
        passkey: wrong(),
      });
      expect(refused.body).toMatchObject({ code: 'passkey_rejected' });
    }
    const fifth = await browser.post('/api/user/login/second-factor/', {
      challenge: prompt.challenge,
      passkey: wrong(),
    });
    expect(fifth.body).toMatchObject({ code: 'second_factor_challenge_expired' });
    const next = await passkeyPrompt(browser, user.email);
    const waiting = await browser.post('/api/user/login/second-factor/', {
      challenge: next.challenge,
      passkey: authenticator.assert(next.options.challenge),
    });
    expect(waiting.status).toBe(429);
  });

  it('registers from its own options only, once, from the right origin, and up to the limit', async () => {
    const { user, client } = await t.signedInUser();
    const authenticator = newAuthenticator();
    const unasked = await client.post('/api/user/passkeys/', {
      name: 'Key',
      response: authenticator.register('c29tZQ'),
    });
    expect(unasked.body).toMatchObject({ code: 'passkey_rejected' });

    const options = (await client.post('/api/user/passkeys/options/', { password: USER_PASSWORD })).body as Options;
    const elsewhere = await client.post('/api/user/passkeys/', {
      name: 'Key',
      response: authenticator.register(options.options.challenge, 'https://pivot.example'),
    });
    expect(elsewhere.body).toMatchObject({ code: 'passkey_rejected' });
    // The options' challenge was spent by that try.
    const late = await client.post('/api/user/passkeys/', {
      name: 'Key',
      response: authenticator.register(options.options.challenge),
    });
    expect(late.body).toMatchObject({ code: 'passkey_rejected' });

    for (let count = 0; count < MAX_PASSKEYS; count++) await addPasskey(client, USER_PASSWORD, `Key ${count + 1}`);
    const tooMany = await client.post('/api/user/passkeys/options/', { password: USER_PASSWORD });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toMatchObject({ code: 'too_many_passkeys' });
    // Only the public key is kept, as the authenticator gave it.
    const rows = await t.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(rows).toHaveLength(MAX_PASSKEYS);
    expect(rows[0]).toMatchObject({ transports: ['internal'], counter: 0 });
  });

  it('removes a passkey: logged, and the password alone signs in again once none is left', async () => {
    const { user, client } = await t.signedInUser();
    const { passkey } = await addPasskey(client, USER_PASSWORD, 'Old key');
    const removed = await client.delete(`/api/user/passkeys/${passkey.id}/`);
    expect(removed.status).toBe(200);
    expect((await client.get('/api/user/passkeys/')).body).toEqual([]);
    expect(await logEntries(user.email)).toContainEqual(['user_passkey_removed', 'Old key']);
    expect((await t.client().login(user.email, USER_PASSWORD)).body).toHaveProperty('access');
    expect((await client.delete(`/api/user/passkeys/${passkey.id}/`)).status).toBe(404);
  });

  it("is removed with the app by an administrator's reset", async () => {
    const { user, client } = await t.signedInUser();
    await addPasskey(client);
    const reset = await t.admin.delete(`/api/user/${user.id}/second-factor/`);
    expect(reset.status).toBe(200);
    expect((await client.get('/api/user/passkeys/')).body).toEqual([]);
    expect((await t.client().login(user.email, USER_PASSWORD)).body).toHaveProperty('access');
  });
});
