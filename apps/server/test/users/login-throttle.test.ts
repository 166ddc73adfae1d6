import { describe, expect, it } from 'vitest';
import { USER_PASSWORD, useTestApp } from '../support/test-app';

const WRONG = 'Wrong-pass-1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Issue 12 item 16: failures make the next try wait; they never lock the real user out. */
describe('sign-in throttling', () => {
  const t = useTestApp();

  const login = (ip: string, email: string, password: string) =>
    t.client(ip).post('/api/user/login/', { email, password });

  it('lets the user in at once from another address while an attacker fails 100 times', async () => {
    const user = await t.buildUser();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1)
      statuses.push((await login('203.0.113.5', user.email, WRONG)).status);
    // Five guesses are checked, then one per wait (1 s, 2 s…); the rest are refused before any password check.
    const checked = statuses.filter((status) => status === 403).length;
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(checked).toBeLessThanOrEqual(10);
    expect(statuses.slice(0, 6)).toEqual([403, 403, 403, 403, 403, 429]);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - checked);
    expect((await login('198.51.100.7', user.email, USER_PASSWORD)).status).toBe(200);
  }, 60_000);

  it('makes the same account and address wait longer after each failure, then takes the right password', async () => {
    const user = await t.buildUser();
    const ip = '203.0.113.9';
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await login(ip, user.email, WRONG)).status).toBe(403);
    const first = await login(ip, user.email, USER_PASSWORD);
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('1');
    expect(first.body).toMatchObject({
      code: 'rate_limited',
      message: 'Zbyt wiele prób - odczekaj chwilę i spróbuj ponownie',
    });
    const english = await t
      .client(ip)
      .post('/api/user/login/', { email: user.email, password: WRONG }, { headers: { 'accept-language': 'en' } });
    expect(english.body).toMatchObject({ message: 'Too many attempts - wait a moment and try again' });

    await sleep(1100);
    expect((await login(ip, user.email, WRONG)).status).toBe(403);
    const second = await login(ip, user.email, USER_PASSWORD);
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('2');

    await sleep(2100);
    expect((await login(ip, user.email, USER_PASSWORD)).status).toBe(200);
    // A success forgets the failures: the next mistake costs no wait.
    expect((await login(ip, user.email, WRONG)).status).toBe(403);
    expect((await login(ip, user.email, USER_PASSWORD)).status).toBe(200);
  }, 30_000);

  it('lets a farm office behind one address sign in after its colleagues mistyped 60 times', async () => {
    const office = '192.0.2.77';
    for (let attempt = 0; attempt < 60; attempt += 1) {
      expect((await login(office, `colleague${attempt}@pivot.test`, WRONG)).status).toBe(403);
    }
    const user = await t.buildUser();
    expect((await login(office, user.email, USER_PASSWORD)).status).toBe(200);
  }, 60_000);

  it('limits password-change guesses with growing waits, then takes the right password', async () => {
    const user = await t.buildUser();
    const client = t.client();
    await client.login(user.email, USER_PASSWORD);
    const change = (oldPassword: string) =>
      client.post('/api/user/password/', {
        oldPassword,
        newPassword: 'Another-Password-2',
        repeatNewPassword: 'Another-Password-2',
      });
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await change(WRONG)).status).toBe(400);
    const limited = await change(USER_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    await sleep(1100);
    expect((await change(WRONG)).status).toBe(400);
    expect((await change(USER_PASSWORD)).headers['retry-after']).toBe('2');
    await sleep(2100);
    expect((await change(USER_PASSWORD)).status).toBe(200);
  }, 30_000);
});
