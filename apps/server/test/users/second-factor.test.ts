import { LogListResponseSchema } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { secondFactors, signInChallenges } from '../../src/modules/users/second-factor.table';
import { totpCode } from '../../src/modules/users/totp';
import type { ApiClient } from '../support/api-client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, USER_PASSWORD, useTestApp } from '../support/test-app';

const STEP_MS = 30_000;

/** Waits past a step's last two seconds, so a code made now is still of the same step when checked. */
async function awayFromStepEdge(): Promise<void> {
  const intoStep = Date.now() % STEP_MS;
  if (intoStep > STEP_MS - 2_000) await new Promise((resolve) => setTimeout(resolve, STEP_MS - intoStep + 50));
}

type Challenge = { secondFactor: { challenge: string; expiresInSeconds: number } };

describe('two-step sign-in', () => {
  const t = useTestApp({}, { signInAdmin: true });

  /** A signed-in user with the second factor on: their secret, recovery codes and client. */
  async function enrolledUser() {
    const { user, client } = await t.signedInUser();
    const setup = await client.post('/api/user/second-factor/setup/', { password: USER_PASSWORD });
    expect(setup.status).toBe(200);
    const { secret } = setup.body as { secret: string };
    await awayFromStepEdge();
    const confirmed = await client.post('/api/user/second-factor/', { code: totpCode(secret, Date.now()) });
    expect(confirmed.status).toBe(200);
    const codes = (confirmed.body as { recovery_codes: string[] }).recovery_codes;
    return { user, client, secret, codes };
  }

  /** The set-up's step moved back, as if it was confirmed minutes ago. */
  async function setUpEarlier(userId: number): Promise<void> {
    await t.database.db.update(secondFactors).set({ lastStep: 0 }).where(eq(secondFactors.userId, userId));
  }

  async function challengeOf(client: ApiClient, email: string, remember = false): Promise<string> {
    const response = await client.post('/api/user/login/', { email, password: USER_PASSWORD, remember });
    expect(response.status).toBe(200);
    expect(response.cookies.has('refresh_token')).toBe(false);
    return (response.body as Challenge).secondFactor.challenge;
  }

  async function logTypes(email: string): Promise<string[]> {
    const log = LogListResponseSchema.parse((await t.admin.get('/api/logs/', { query: { pageSize: 100 } })).body);
    return log.data.filter((entry) => entry.event === email).map((entry) => entry.eventType);
  }

  it('computes the codes of RFC 6238 (its SHA-1 test vectors, the last six digits)', () => {
    // The ASCII secret "12345678901234567890" in base32.
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(totpCode(secret, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(secret, 1_234_567_890_000)).toBe('005924');
    expect(totpCode(secret, 20_000_000_000_000)).toBe('353130');
  });

  it('is set up with the password and a code from the app, answers ten recovery codes once, and keeps the secret sealed', async () => {
    const { user, client } = await t.signedInUser();
    expect((await client.get('/api/user/second-factor/')).body).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
    });
    const wrongPassword = await client.post('/api/user/second-factor/setup/', { password: 'Wrong-pass-1!' });
    expect(wrongPassword.body).toMatchObject({ code: 'current_password_incorrect' });
    expect((await client.post('/api/user/second-factor/', { code: '123456' })).body).toMatchObject({
      code: 'second_factor_not_started',
    });

    const setup = await client.post('/api/user/second-factor/setup/', { password: USER_PASSWORD });
    const { secret, uri } = setup.body as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(
      new RegExp(`^otpauth://totp/Pivot:${encodeURIComponent(user.email)}\\?issuer=Pivot&secret=${secret}`),
    );
    const [row] = await t.database.db.select().from(secondFactors).where(eq(secondFactors.userId, user.id));
    expect(row!.sealedSecret).not.toContain(secret);
    // Not in force until confirmed: the password alone still signs in.
    expect((await t.client().login(user.email, USER_PASSWORD)).body).toHaveProperty('access');

    await awayFromStepEdge();
    const wrong = await client.post('/api/user/second-factor/', { code: totpCode(secret, Date.now() + 5 * STEP_MS) });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'second_factor_incorrect' });
    const confirmed = await client.post('/api/user/second-factor/', { code: totpCode(secret, Date.now()) });
    const codes = (confirmed.body as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
    expect((await client.get('/api/user/second-factor/')).body).toMatchObject({
      enabled: true,
      enabled_at: expect.any(String),
      recovery_codes_left: 10,
    });
    expect((await client.post('/api/user/second-factor/setup/', { password: USER_PASSWORD })).body).toMatchObject({
      code: 'second_factor_already_enabled',
    });
    expect(await logTypes(user.email)).toContain('user_second_factor_enabled');
  });

  it('asks for a code after the password, and signs in with it; the same code is not taken twice', async () => {
    const { user, secret } = await enrolledUser();
    const browser = t.client();
    const challenge = await challengeOf(browser, user.email, true);
    // As if set up a minute ago: the code of this step is not the one the set-up took.
    await setUpEarlier(user.id);
    await awayFromStepEdge();
    const code = totpCode(secret, Date.now());
    const signedIn = await browser.post('/api/user/login/second-factor/', { challenge, code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ user: { id: user.id }, access: expect.any(String) });
    // The login's "remember me" is the session's.
    expect(signedIn.cookies.get('refresh_token')?.maxAge).toBe(30 * 24 * 60 * 60);
    browser.access = (signedIn.body as { access: string }).access;
    expect((await browser.get('/api/user/')).status).toBe(200);

    const again = t.client();
    const replay = await again.post('/api/user/login/second-factor/', {
      challenge: await challengeOf(again, user.email),
      code,
    });
    expect(replay.status).toBe(403);
    expect(replay.body).toMatchObject({ code: 'second_factor_incorrect' });
    // The challenge is spent once used.
    expect((await browser.post('/api/user/login/second-factor/', { challenge, code })).body).toMatchObject({
      code: 'second_factor_challenge_expired',
    });
  });

  it('takes a code of the step before or after now (a phone 30 s off), not of two steps off', async () => {
    const ahead = await enrolledUser();
    const behind = await enrolledUser();
    await setUpEarlier(behind.user.id);
    await awayFromStepEdge();
    const cases = [
      [ahead, 2 * STEP_MS, 403],
      [ahead, -2 * STEP_MS, 403],
      [ahead, STEP_MS, 200],
      // Now's step is before the one just taken: a code seen earlier is no good after a later one.
      [ahead, 0, 403],
      [behind, -STEP_MS, 200],
    ] as const;
    for (const [{ user, secret }, offset, status] of cases) {
      const client = t.client();
      const challenge = await challengeOf(client, user.email);
      const response = await client.post('/api/user/login/second-factor/', {
        challenge,
        code: totpCode(secret, Date.now() + offset),
      });
      expect({ offset, status: response.status }).toEqual({ offset, status });
    }
  });

  it('takes each recovery code once, however it is typed, and logs its use', async () => {
    const { user, codes } = await enrolledUser();
    const first = t.client();
    const typed = `  ${codes[0]!.toUpperCase().replaceAll('-', ' ')} `;
    const response = await first.post('/api/user/login/second-factor/', {
      challenge: await challengeOf(first, user.email),
      recoveryCode: typed,
    });
    expect(response.status).toBe(200);
    const second = t.client();
    const reused = await second.post('/api/user/login/second-factor/', {
      challenge: await challengeOf(second, user.email),
      recoveryCode: codes[0],
    });
    expect(reused.body).toMatchObject({ code: 'second_factor_incorrect' });
    first.access = (response.body as { access: string }).access;
    expect((await first.get('/api/user/second-factor/')).body).toMatchObject({ recovery_codes_left: 9 });
    expect(await logTypes(user.email)).toContain('user_recovery_code_used');
    // Another user's code is not this user's.
    const other = await enrolledUser();
    const third = t.client();
    const foreign = await third.post('/api/user/login/second-factor/', {
      challenge: await challengeOf(third, user.email),
      recoveryCode: other.codes[0],
    });
    expect(foreign.body).toMatchObject({ code: 'second_factor_incorrect' });
  });

  it('spends a challenge after five wrong codes, or once it expires, and makes the account wait after repeated failures', async () => {
    const { user, codes } = await enrolledUser();
    const client = t.client();
    const challenge = await challengeOf(client, user.email);
    const answers: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await client.post('/api/user/login/second-factor/', { challenge, code: '000000' });
      answers.push((wrong.body as { code: string }).code);
    }
    expect(answers).toEqual([...Array(4).fill('second_factor_incorrect'), 'second_factor_challenge_expired']);
    // Five failures are free; the sixth wrong code from any challenge waits.
    const next = await challengeOf(client, user.email);
    const waited = await client.post('/api/user/login/second-factor/', { challenge: next, recoveryCode: codes[1] });
    expect(waited.status).toBe(429);
    expect(waited.headers['retry-after']).toBeDefined();

    const fresh = await enrolledUser();
    const late = t.client();
    const expired = await challengeOf(late, fresh.user.email);
    await t.database.db
      .update(signInChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signInChallenges.userId, fresh.user.id));
    const tooLate = await late.post('/api/user/login/second-factor/', {
      challenge: expired,
      recoveryCode: fresh.codes[0],
    });
    expect(tooLate.status).toBe(401);
    expect(tooLate.body).toMatchObject({ code: 'second_factor_challenge_expired' });
  });

  it('signs in once when the same code is sent twice at once', async () => {
    const { user, codes } = await enrolledUser();
    const client = t.client();
    const challenge = await challengeOf(client, user.email);
    const answers = await Promise.all(
      [0, 1].map(() => client.post('/api/user/login/second-factor/', { challenge, recoveryCode: codes[2] })),
    );
    // The second finds the code used (403) or the challenge spent (401), as the two interleave.
    const [signedIn, refused] = answers.sort((a, b) => a.status - b.status);
    expect(signedIn!.status).toBe(200);
    expect([401, 403]).toContain(refused!.status);
  });

  it('remembers a browser for 30 days when asked, and only that browser', async () => {
    const { user, codes } = await enrolledUser();
    const browser = t.client();
    const response = await browser.post('/api/user/login/second-factor/', {
      challenge: await challengeOf(browser, user.email),
      recoveryCode: codes[0],
      rememberBrowser: true,
    });
    expect(response.cookies.get('remembered_browser')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/user/login/',
      maxAge: 30 * 24 * 60 * 60,
    });
    expect((await browser.login(user.email, USER_PASSWORD)).body).toHaveProperty('access');
    await challengeOf(t.client(), user.email);
    // The remembered browser skips the code of its own account only.
    const other = await enrolledUser();
    await challengeOf(browser, other.user.email);
  });

  it('is turned off with the password, forgetting remembered browsers; new recovery codes replace the old', async () => {
    const { user, client, codes } = await enrolledUser();
    const renewed = await client.post('/api/user/second-factor/recovery-codes/', { password: USER_PASSWORD });
    const newCodes = (renewed.body as { recovery_codes: string[] }).recovery_codes;
    expect(newCodes.some((code) => codes.includes(code))).toBe(false);
    const browser = t.client();
    const old = await browser.post('/api/user/login/second-factor/', {
      challenge: await challengeOf(browser, user.email),
      recoveryCode: codes[0],
    });
    expect(old.body).toMatchObject({ code: 'second_factor_incorrect' });
    const remembered = await browser.post('/api/user/login/second-factor/', {
      challenge: await challengeOf(browser, user.email),
      recoveryCode: newCodes[0],
      rememberBrowser: true,
    });
    expect(remembered.status).toBe(200);

    expect((await client.post('/api/user/second-factor/disable/', { password: 'Wrong-pass-1!' })).body).toMatchObject({
      code: 'current_password_incorrect',
    });
    const off = await client.post('/api/user/second-factor/disable/', { password: USER_PASSWORD });
    expect(off.status).toBe(200);
    expect((await t.client().login(user.email, USER_PASSWORD)).body).toHaveProperty('access');
    expect((await client.post('/api/user/second-factor/disable/', { password: USER_PASSWORD })).body).toMatchObject({
      code: 'second_factor_not_enabled',
    });
    // On again: the browser remembered before is asked for a code like any other.
    const setup = await client.post('/api/user/second-factor/setup/', { password: USER_PASSWORD });
    const { secret } = setup.body as { secret: string };
    await awayFromStepEdge();
    expect((await client.post('/api/user/second-factor/', { code: totpCode(secret, Date.now()) })).status).toBe(200);
    await challengeOf(browser, user.email);
    expect(await logTypes(user.email)).toEqual(
      expect.arrayContaining(['user_recovery_codes_renewed', 'user_second_factor_disabled']),
    );
  });

  it('is reset by an administrator, logged with their name; not by anyone else', async () => {
    const { user, client } = await enrolledUser();
    const { user: other } = await enrolledUser();
    expect((await client.delete(`/api/user/${other.id}/second-factor/`)).status).toBe(403);
    const reset = await t.admin.delete(`/api/user/${user.id}/second-factor/`);
    expect(reset.status).toBe(200);
    expect((await t.client().login(user.email, USER_PASSWORD)).body).toHaveProperty('access');
    expect((await t.admin.delete(`/api/user/${user.id}/second-factor/`)).body).toMatchObject({
      code: 'second_factor_not_enabled',
    });
    expect((await t.admin.delete('/api/user/999999/second-factor/')).status).toBe(404);
    const log = LogListResponseSchema.parse((await t.admin.get('/api/logs/', { query: { pageSize: 100 } })).body);
    const entry = log.data.find((item) => item.eventType === 'user_second_factor_reset' && item.event === user.email);
    expect(entry?.details).toBe('admin@pivot.test');
  });
});

describe('two-step sign-in required of administrators (REQUIRE_ADMIN_2FA)', () => {
  const t = useTestApp({ REQUIRE_ADMIN_2FA: 'true' }, { signInAdmin: true });

  it('opens only the account and the set-up to an administrator without it, the rest once it is on, and keeps it on', async () => {
    const refused = await t.admin.get('/api/user/list/');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'second_factor_required' });
    expect((await t.admin.get('/api/sprinkler/')).body).toMatchObject({ code: 'second_factor_required' });
    expect((await t.admin.get('/api/user/')).status).toBe(200);
    expect((await t.admin.get('/api/user/second-factor/')).body).toMatchObject({ enabled: false });

    // Users who are not administrators are not asked.
    const { client } = await t.signedInUser();
    expect((await client.get('/api/sprinkler/')).status).toBe(200);

    const setup = await t.admin.post('/api/user/second-factor/setup/', { password: ADMIN_PASSWORD });
    const { secret } = setup.body as { secret: string };
    await awayFromStepEdge();
    expect((await t.admin.post('/api/user/second-factor/', { code: totpCode(secret, Date.now()) })).status).toBe(200);
    expect((await t.admin.get('/api/user/list/')).status).toBe(200);
    const off = await t.admin.post('/api/user/second-factor/disable/', { password: ADMIN_PASSWORD });
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ code: 'second_factor_required' });
    // A new sign-in asks for the code.
    const again = await t.client().post('/api/user/login/', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(again.body).toHaveProperty('secondFactor');
  });

  it('asks it again of an administrator whose second factor another reset, on their very next call', async () => {
    const { user: other, client: otherClient } = await t.signedInUser({ admin: true });
    const setup = await otherClient.post('/api/user/second-factor/setup/', { password: USER_PASSWORD });
    await awayFromStepEdge();
    const code = totpCode((setup.body as { secret: string }).secret, Date.now());
    expect((await otherClient.post('/api/user/second-factor/', { code })).status).toBe(200);
    expect((await otherClient.get('/api/user/list/')).status).toBe(200);
    expect((await t.admin.delete(`/api/user/${other.id}/second-factor/`)).status).toBe(200);
    expect((await otherClient.get('/api/user/list/')).body).toMatchObject({ code: 'second_factor_required' });
  });
});

describe("two-step sign-in required by a farm's owner", () => {
  const t = useTestApp({}, { signInAdmin: true });

  it('asks it of every member of the farm, from their very next call, keeps it on, and lets only an owner decide', async () => {
    const farm = (await t.admin.post('/api/farm/', { name: 'Farm that asks for codes' })).body as { id: number };
    const owner = await t.signedInUser();
    const manager = await t.signedInUser();
    const member = await t.signedInUser();
    const outsider = await t.signedInUser();
    for (const [person, role] of [
      [owner, 'owner'],
      [manager, 'manager'],
      [member, 'member'],
    ] as const) {
      expect((await t.admin.post(`/api/farm/${farm.id}/members/`, { email: person.user.email, role })).status).toBe(
        201,
      );
    }
    const require = (client: ApiClient, required: boolean) =>
      client.put(`/api/farm/${farm.id}/second-factor/`, { required });
    expect((await require(manager.client, true)).status).toBe(403);
    const required = await require(owner.client, true);
    expect(required.body).toMatchObject({ id: farm.id, requireSecondFactor: true });

    // Everyone in the farm, its owner too, now reaches only their account and the set-up.
    for (const person of [owner, manager, member]) {
      expect((await person.client.get('/api/sprinkler/')).body).toMatchObject({ code: 'second_factor_required' });
      expect((await person.client.get('/api/user/')).status).toBe(200);
    }
    expect((await outsider.client.get('/api/sprinkler/')).status).toBe(200);

    const setup = await member.client.post('/api/user/second-factor/setup/', { password: USER_PASSWORD });
    const { secret } = setup.body as { secret: string };
    await awayFromStepEdge();
    expect((await member.client.post('/api/user/second-factor/', { code: totpCode(secret, Date.now()) })).status).toBe(
      200,
    );
    expect((await member.client.get('/api/sprinkler/')).status).toBe(200);
    const off = await member.client.post('/api/user/second-factor/disable/', { password: USER_PASSWORD });
    expect(off.body).toMatchObject({ code: 'second_factor_required' });

    // The administrator (the server's operator) lifts it; the others are free again at once.
    expect((await require(t.admin, false)).body).toMatchObject({ requireSecondFactor: false });
    expect((await manager.client.get('/api/sprinkler/')).status).toBe(200);
    const log = LogListResponseSchema.parse((await t.admin.get('/api/logs/', { query: { pageSize: 100 } })).body);
    expect(
      log.data
        .filter((entry) => entry.eventType.startsWith('farm_second_factor'))
        .map((entry) => [entry.eventType, entry.farmName, entry.event]),
    ).toEqual([
      ['farm_second_factor_optional', 'Farm that asks for codes', ADMIN_EMAIL],
      ['farm_second_factor_required', 'Farm that asks for codes', owner.user.email],
    ]);
  });
});
