import { UserListResponseSchema, UserSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { sprinklerAccess } from '../../src/modules/access/access.table';
import { sprinklers } from '../../src/modules/sprinklers/sprinklers.table';
import { NOT_YET_REPORTED } from '../support/fixtures';
import { ADMIN_EMAIL, USER_PASSWORD, createTestApp, useTestApp } from '../support/test-app';

const newUser = (email: string) => ({
  first_name: 'Ewa',
  last_name: 'Zielińska',
  email,
  company: 'Farma Zielińskich',
  phone: '+48 600 100 200',
});

describe('users', () => {
  const t = useTestApp({}, { signInAdmin: true });

  it('creates the first administrator from ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const response = await t.admin.get('/api/user/');
    expect(UserSchema.parse(response.body)).toMatchObject({ email: ADMIN_EMAIL, admin: true, activated: true });
  });

  it('lets an administrator create a user, with the company as company_name and no password yet', async () => {
    const response = await t.admin.post('/api/user/', {
      ...newUser('  Ewa@Farm.PL '),
      language: 'en',
      subscription_expiry_date: '2030-04-30',
    });
    expect(response.status).toBe(201);
    expect(UserSchema.parse(response.body)).toMatchObject({
      email: 'ewa@farm.pl',
      company_name: 'Farma Zielińskich',
      language: 'en',
      admin: false,
      activated: false,
      subscription: { active: true, expiry_date: '2030-04-30' },
    });
  });

  it('answers 409 for an email that is taken, in any case', async () => {
    await t.admin.post('/api/user/', newUser('taken@farm.pl'));
    const response = await t.admin.post('/api/user/', newUser('TAKEN@farm.pl'));
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      code: 'email_taken',
      message: 'Użytkownik o tym adresie email już istnieje',
    });
    const { client, user } = await t.signedInUser();
    const update = await client.patch('/api/user/', { email: 'taken@farm.pl', current_password: USER_PASSWORD });
    expect(update.status).toBe(409);
    expect((await client.get('/api/user/')).body).toMatchObject({ email: user.email });
  });

  it('rejects bad input with 400 and says which field', async () => {
    const response = await t.admin.post('/api/user/', { ...newUser('not-an-email'), unknown: 1 });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_error' });
    const paths = (response.body as { issues: { path: string }[] }).issues.map((issue) => issue.path);
    expect(paths).toContain('body.email');
  });

  it('answers 400, not 500, for a body that is not JSON', async () => {
    const response = await t.admin.request('POST', '/api/user/', '{"first_name": ', {
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_error' });
  });

  it('keeps administrator calls for administrators: 403 for ordinary users', async () => {
    const { client, user } = await t.signedInUser();
    const calls = [
      client.post('/api/user/', newUser('sneaky@farm.pl')),
      client.get('/api/user/list/'),
      client.patch(`/api/user/${user.id}/`, { admin: true }),
      client.delete(`/api/user/${user.id}/`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'forbidden' });
    }
    expect((await client.get('/api/user/')).body).toMatchObject({ admin: false });
  });

  it('lets users edit themselves but not their t.admin flag or subscription', async () => {
    const { client } = await t.signedInUser();
    const response = await client.patch('/api/user/', { first_name: 'Piotr', company: null, language: 'en' });
    expect(response.body).toMatchObject({ first_name: 'Piotr', company_name: null, language: 'en' });
    expect((await client.patch('/api/user/', { admin: true })).status).toBe(400);
  });

  it('lets an administrator edit any user, and answers 404 for one that does not exist', async () => {
    const user = await t.buildUser();
    const response = await t.admin.patch(`/api/user/${user.id}/`, {
      subscription_expiry_date: '2020-01-31',
      admin: true,
    });
    expect(response.body).toMatchObject({ admin: true, subscription: { active: false, expiry_date: '2020-01-31' } });
    const missing = await t.admin.patch('/api/user/999999/', { first_name: 'X' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'user_not_found' });
  });

  it('never lets the last administrator go', async () => {
    const me = (await t.admin.get('/api/user/')).body as { id: number };
    const lonelyApp = await createTestApp();
    try {
      const lonelyAdmin = await lonelyApp.adminClient();
      const self = (await lonelyAdmin.get('/api/user/')).body as { id: number };
      expect((await lonelyAdmin.delete('/api/user/')).status).toBe(409);
      expect((await lonelyAdmin.patch(`/api/user/${self.id}/`, { admin: false })).body).toMatchObject({
        code: 'last_admin',
      });
      expect((await lonelyAdmin.get('/api/user/')).status).toBe(200);
    } finally {
      await lonelyApp.close();
    }
    expect(me.id).toBeGreaterThan(0);
  });

  it('deletes a user by id, after which their session ends', async () => {
    const { client, user } = await t.signedInUser();
    expect((await t.admin.delete(`/api/user/${user.id}/`)).status).toBe(200);
    expect((await client.get('/api/user/')).status).toBe(401);
    expect((await t.admin.delete(`/api/user/${user.id}/`)).status).toBe(404);
  });

  it('lets users delete their own account', async () => {
    const { client, user } = await t.signedInUser();
    expect((await client.delete('/api/user/')).status).toBe(200);
    expect((await t.client().post('/api/user/login/', { email: user.email, password: USER_PASSWORD })).status).toBe(
      403,
    );
  });

  describe('password change', () => {
    it('answers 400 with the problems of each field', async () => {
      const { client } = await t.signedInUser({ language: 'en' });
      const response = await client.post('/api/user/password/', {
        oldPassword: 'wrong',
        newPassword: 'short',
        repeatNewPassword: 'other',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'password_rejected',
        message: 'The password was not accepted',
        oldPassword: ['The current password is incorrect'],
        newPassword: [
          'The password needs at least 8 characters',
          'The password needs an upper-case letter',
          'The password needs a digit',
          'The password needs a special character',
        ],
        repeatNewPassword: ['Passwords must be the same'],
      });
    });

    it('answers in Polish for a Polish user and refuses reusing the current password', async () => {
      const { client } = await t.signedInUser({ language: 'pl' });
      const response = await client.post('/api/user/password/', {
        oldPassword: USER_PASSWORD,
        newPassword: USER_PASSWORD,
        repeatNewPassword: USER_PASSWORD,
      });
      expect(response.body).toEqual({
        code: 'password_rejected',
        message: 'Hasło nie zostało przyjęte',
        newPassword: ['Nowe hasło musi różnić się od obecnego'],
      });
    });

    it("answers in the page's language (Accept-Language), not the account's", async () => {
      const { client } = await t.signedInUser({ language: 'en' });
      const weak = { oldPassword: USER_PASSWORD, newPassword: 'short', repeatNewPassword: 'short' };
      const polishPage = await client.post('/api/user/password/', weak, { headers: { 'accept-language': 'pl' } });
      expect(polishPage.body).toMatchObject({
        message: 'Hasło nie zostało przyjęte',
        newPassword: expect.arrayContaining(['Hasło musi mieć co najmniej 8 znaków']),
      });
      const englishPage = await client.post('/api/user/password/', weak, {
        headers: { 'accept-language': 'de-DE, en;q=0.8, pl;q=0.5' },
      });
      expect(englishPage.body).toMatchObject({
        message: 'The password was not accepted',
        newPassword: expect.arrayContaining(['The password needs at least 8 characters']),
      });
      const noPage = await client.post('/api/user/password/', weak);
      expect(noPage.body).toMatchObject({ message: 'The password was not accepted' });
    });

    it('changes the password and signs out every other session, keeping this one', async () => {
      const { client, user } = await t.signedInUser();
      const otherDevice = t.client();
      await otherDevice.login(user.email, USER_PASSWORD);
      const newPassword = 'Brand-new-pass-2';
      const response = await client.post('/api/user/password/', {
        oldPassword: USER_PASSWORD,
        newPassword,
        repeatNewPassword: newPassword,
      });
      expect(response.status).toBe(200);
      expect((await client.get('/api/user/')).status).toBe(200);
      expect((await otherDevice.get('/api/user/')).status).toBe(401);
      expect((await otherDevice.post('/api/user/refresh-token/')).status).toBe(401);
      expect((await t.client().post('/api/user/login/', { email: user.email, password: USER_PASSWORD })).status).toBe(
        403,
      );
      await t.client().login(user.email, newPassword);
    });
  });

  describe("the administrators' user list", () => {
    it("pages, searches, sorts and lists each user's machines", async () => {
      const tag = `list${Date.now()}`;
      const created = [];
      for (const name of ['Cecylia', 'Adam', 'Bogdan']) {
        created.push(
          await t.buildUser({ firstName: name, lastName: tag, email: `${name.toLowerCase()}.${tag}@farm.pl` }),
        );
      }
      const [pivot] = await t.database.db
        .insert(sprinklers)
        .values({ internalId: `P-${tag}`, name: 'North pivot', lat: '52.100000', lng: '21.000000' })
        .returning();
      await t.database.db.insert(sprinklerAccess).values({ sprinklerId: pivot!.id, userId: created[1]!.id });

      const page = await t.admin.get('/api/user/list/', {
        query: { search: tag, sort: 'first_name', order: 'asc', page: 1, pageSize: 2 },
      });
      const parsed = UserListResponseSchema.parse(page.body);
      expect(parsed.count).toBe(3);
      expect(parsed.data.map((row) => row.user.first_name)).toEqual(['Adam', 'Bogdan']);
      expect(parsed.data[0]!.sprinklers).toEqual([
        {
          id: pivot!.id,
          internalId: `P-${tag}`,
          name: 'North pivot',
          lat: 52.1,
          lng: 21,
          ...NOT_YET_REPORTED,
          level: 'control',
        },
      ]);
      expect((page.body as { data: { sprinklers: { lat: unknown }[] }[] }).data[0]!.sprinklers[0]!.lat).toBe('52.1');

      const second = UserListResponseSchema.parse(
        (
          await t.admin.get('/api/user/list/', {
            query: { search: tag, sort: 'first_name', order: 'desc', page: 2, pageSize: 2 },
          })
        ).body,
      );
      expect(second.data.map((row) => row.user.first_name)).toEqual(['Adam']);

      const excluded = UserListResponseSchema.parse(
        (await t.admin.get('/api/user/list/', { query: { search: tag, exclude: pivot!.id } })).body,
      );
      expect(excluded.data.map((row) => row.user.first_name).sort()).toEqual(['Bogdan', 'Cecylia']);

      const byFullName = UserListResponseSchema.parse(
        (await t.admin.get('/api/user/list/', { query: { search: `Adam ${tag}` } })).body,
      );
      expect(byFullName.count).toBe(1);
    });

    it('treats % and _ in the search as plain characters', async () => {
      const response = await t.admin.get('/api/user/list/', { query: { search: '%' } });
      expect(UserListResponseSchema.parse(response.body).count).toBe(0);
    });

    it('rejects a page size over 100', async () => {
      expect((await t.admin.get('/api/user/list/', { query: { pageSize: 101 } })).status).toBe(400);
    });
  });
});
