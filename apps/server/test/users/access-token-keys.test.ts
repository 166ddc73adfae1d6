import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenKeys } from '../../src/modules/users/auth.table';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

describe('access tokens signed by each instance’s own key', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({}, { database: first.database });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('are accepted by every instance, and the database holds their public keys only', async () => {
    const user = await first.buildUser();
    const signedIn = first.client();
    await signedIn.login(user.email, USER_PASSWORD);
    const elsewhere = second.client();
    elsewhere.access = signedIn.access;
    expect((await elsewhere.get('/api/user/')).status).toBe(200);

    const keys = await first.database.db.select().from(accessTokenKeys);
    expect(keys).toHaveLength(2);
    for (const key of keys)
      expect(key.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n?$/);
    const header = JSON.parse(Buffer.from(signedIn.access!.split('.')[0]!, 'base64url').toString()) as {
      alg: string;
      kid: string;
    };
    expect(header.alg).toBe('EdDSA');
    expect(keys.map((key) => key.kid)).toContain(header.kid);
  });

  it('are signed with JWT_SECRET when it is set, which the database never holds', async () => {
    const secret = 'a-key-the-operator-keeps-outside-the-product';
    const withSecret = await createTestApp({ JWT_SECRET: secret });
    try {
      const user = await withSecret.buildUser();
      const client = withSecret.client();
      await client.login(user.email, USER_PASSWORD);
      expect((await client.get('/api/user/')).status).toBe(200);
      const header = JSON.parse(Buffer.from(client.access!.split('.')[0]!, 'base64url').toString()) as { alg: string };
      expect(header.alg).toBe('HS256');
      expect(await withSecret.database.db.select().from(accessTokenKeys)).toEqual([]);
    } finally {
      await withSecret.close();
    }
  });
});
