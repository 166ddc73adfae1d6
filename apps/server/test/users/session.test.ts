import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, USER_PASSWORD, useTestApp } from '../support/test-app';

describe('sessions', () => {
  const t = useTestApp({ ACCESS_TOKEN_TTL_SECONDS: '5', REFRESH_REUSE_GRACE_SECONDS: '1' });

  it('signs in with the right password and answers the user and an access token', async () => {
    const user = await t.buildUser({ firstName: 'Anna', lastName: 'Nowak' });
    const client = t.client();
    const response = await client.login(user.email.toUpperCase(), USER_PASSWORD);
    expect(response.body).toMatchObject({
      user: { id: user.id, email: user.email, first_name: 'Anna' },
      access: expect.any(String),
    });
    const refreshCookie = response.cookies.get('refresh_token');
    expect(refreshCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/user/' });
    expect(refreshCookie?.maxAge).toBeUndefined();
    expect((await client.get('/api/user/')).body).toMatchObject({ id: user.id });
  });

  it('keeps the refresh cookie for 30 days with "remember me"', async () => {
    const user = await t.buildUser();
    const response = await t.client().login(user.email, USER_PASSWORD, true);
    expect(response.cookies.get('refresh_token')?.maxAge).toBe(30 * 24 * 60 * 60);
  });

  it('answers a wrong password and an unknown email alike: 403 Incorrect email or password', async () => {
    const user = await t.buildUser();
    const wrongPassword = await t.client().post('/api/user/login/', { email: user.email, password: 'Nope-123!' });
    const unknownEmail = await t
      .client()
      .post('/api/user/login/', { email: 'nobody@pivot.test', password: 'Nope-123!' });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ code: 'invalid_credentials', message: 'Nieprawidłowy email lub hasło' });
    }
    const english = await t
      .client()
      .post('/api/user/login/', { email: user.email, password: 'x' }, { headers: { 'accept-language': 'en-GB,en' } });
    expect(english.body).toEqual({ code: 'invalid_credentials', message: 'Incorrect email or password' });
  });

  it('refuses a user who has not activated the account yet', async () => {
    const user = await t.buildUser({ passwordHash: null, activatedAt: null });
    const response = await t.client().post('/api/user/login/', { email: user.email, password: USER_PASSWORD });
    expect(response.status).toBe(403);
  });

  it('rotates the refresh token on every refresh and revokes the family when a used one comes back', async () => {
    const user = await t.buildUser();
    const client = t.client();
    await client.login(user.email, USER_PASSWORD);
    const firstToken = client.cookies.get('refresh_token')!;

    const refreshed = await client.post('/api/user/refresh-token/');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ access: expect.any(String) });
    const secondToken = client.cookies.get('refresh_token')!;
    expect(secondToken).not.toBe(firstToken);

    // Past the grace window a used token coming back can only be a copy.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const thief = t.client();
    thief.cookies.set('refresh_token', firstToken);
    expect((await thief.post('/api/user/refresh-token/')).status).toBe(401);

    // The replay ended the whole session: the legitimate holder's newer token and access token stop working too.
    client.access = (refreshed.body as { access: string }).access;
    expect((await client.get('/api/user/')).status).toBe(401);
    expect((await client.post('/api/user/refresh-token/')).status).toBe(401);
  });

  it('lets two refreshes sent at once with the same cookie both succeed, and the session goes on', async () => {
    const user = await t.buildUser();
    const tabs = [t.client(), t.client(), t.client()];
    await tabs[0]!.login(user.email, USER_PASSWORD);
    const shared = tabs[0]!.cookies.get('refresh_token')!;
    for (const tab of tabs) {
      tab.cookies.set('csrf_token', tabs[0]!.cookies.get('csrf_token')!);
      tab.cookies.set('refresh_token', shared);
    }
    const answers = await Promise.all(tabs.map((tab) => tab.post('/api/user/refresh-token/')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    for (const [index, tab] of tabs.entries()) {
      tab.access = (answers[index]!.body as { access: string }).access;
      expect((await tab.get('/api/user/')).status).toBe(200);
      // Each tab's new cookie goes on working: the session was not ended.
      expect(tab.cookies.get('refresh_token')).not.toBe(shared);
      expect((await tab.post('/api/user/refresh-token/')).status).toBe(200);
    }
  });

  it('goes on through a refresh once the access token has expired', async () => {
    const user = await t.buildUser();
    const client = t.client();
    await client.login(user.email, USER_PASSWORD);
    // Used while valid, so the server has checked its signature: it must still expire.
    expect((await client.get('/api/user/')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect((await client.get('/api/user/')).status).toBe(401);
    const refreshed = await client.post('/api/user/refresh-token/');
    client.access = (refreshed.body as { access: string }).access;
    expect((await client.get('/api/user/')).status).toBe(200);
  }, 20_000);

  it('rejects forged and malformed access tokens', async () => {
    const user = await t.buildUser();
    const forged = await new SignJWT({ sid: '00000000-0000-0000-0000-000000000000' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuer('pivot-dashboard')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-secret-that-the-server-does-not-have-at-all'));
    const real = t.client();
    await real.login(user.email, USER_PASSWORD);
    expect((await real.get('/api/user/')).status).toBe(200);
    const realToken = real.access!;
    const tampered = `${realToken.slice(0, realToken.lastIndexOf('.') + 1)}${'A'.repeat(43)}`;
    for (const token of [forged, 'not-a-token', `${forged.slice(0, -4)}AAAA`, tampered]) {
      const client = t.client();
      client.access = token;
      const response = await client.get('/api/user/');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('answers 401 without a token and without a refresh cookie', async () => {
    expect((await t.client().get('/api/user/')).status).toBe(401);
    expect((await t.client().post('/api/user/refresh-token/')).status).toBe(401);
  });

  it('logs out: the access token and the refresh cookie stop working', async () => {
    const user = await t.buildUser();
    const client = t.client();
    await client.login(user.email, USER_PASSWORD);
    const refreshToken = client.cookies.get('refresh_token')!;
    const response = await client.post('/api/user/logout/');
    expect(response.status).toBe(200);
    expect(client.cookies.has('refresh_token')).toBe(false);
    expect((await client.get('/api/user/')).status).toBe(401);
    const replay = t.client();
    replay.cookies.set('refresh_token', refreshToken);
    expect((await replay.post('/api/user/refresh-token/')).status).toBe(401);
  });

  it('refuses unsafe calls without the CSRF header, or with one that differs from the cookie', async () => {
    const client = t.client();
    await client.get('/api/health');
    expect(client.cookies.get('csrf_token')).toBeTruthy();
    const missing = await client.post(
      '/api/user/login/',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { csrf: false },
    );
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ code: 'csrf_mismatch' });
    const wrong = await client.post(
      '/api/user/login/',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { csrf: false, headers: { 'x-csrf-token': 'something-else' } },
    );
    expect(wrong.status).toBe(403);
    expect((await client.post('/api/user/login/', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(200);
  });
});
