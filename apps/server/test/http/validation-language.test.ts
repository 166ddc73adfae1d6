import { ErrorBodySchema } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { type TestApp, createTestApp } from '../support/test-app';

const newUser = { first_name: 7, last_name: 'Zielińska', email: 'ewa@farm.pl', company: 'Farma', extra: 1 };

describe('a request refused by its schema', () => {
  let t: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminClient();
  });
  afterAll(() => t.close());

  const refusal = async (response: { status: number; body: unknown }) => {
    expect(response.status).toBe(400);
    return ErrorBodySchema.parse(response.body);
  };

  it('says what is wrong with the body in Polish to a Polish page, in English to an English one', async () => {
    const polish = await refusal(await admin.post('/api/user/', newUser, { headers: { 'accept-language': 'pl' } }));
    expect(polish.code).toBe('validation_error');
    expect(polish.issues).toEqual(
      expect.arrayContaining([
        { path: 'body.first_name', message: 'Nieprawidłowa wartość: oczekiwano typu tekst' },
        { path: 'body', message: 'Nierozpoznane klucze: "extra"' },
      ]),
    );
    const english = await refusal(await admin.post('/api/user/', newUser, { headers: { 'accept-language': 'en' } }));
    expect(english.issues).toEqual(
      expect.arrayContaining([
        { path: 'body.first_name', message: 'Invalid input: expected string, received number' },
        { path: 'body', message: 'Unrecognized key: "extra"' },
      ]),
    );
    expect(english.message).not.toBe(polish.message);
  });

  it('says what is wrong with the query in the page’s language too', async () => {
    const query = { pageSize: '1000' };
    const polish = await refusal(await admin.get('/api/user/list/', { query, headers: { 'accept-language': 'pl' } }));
    expect(polish.issues).toEqual([{ path: 'querystring.pageSize', message: 'Liczba może wynosić najwyżej 100' }]);
    const english = await refusal(await admin.get('/api/user/list/', { query, headers: { 'accept-language': 'en' } }));
    expect(english.issues).toEqual([{ path: 'querystring.pageSize', message: 'Too big: expected number to be <=100' }]);
  });

  it('keeps a message the contracts wrote themselves, in any language', async () => {
    const response = await admin.get('/api/sprinkler/abc/', { headers: { 'accept-language': 'pl' } });
    const body = await refusal(response);
    expect(body.issues).toEqual([{ path: 'params.id', message: 'Expected an id such as 42' }]);
  });
});
