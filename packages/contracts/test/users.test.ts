import { describe, expect, it } from 'vitest';
import {
  ChangePasswordBodySchema,
  CreateUserBodySchema,
  EmailSchema,
  LoginBodySchema,
  LoginResponseSchema,
  MessageResponseSchema,
  PasswordEmailBodySchema,
  RefreshResponseSchema,
  SetPasswordBodySchema,
  SubscriptionSchema,
  USER_SORT_FIELDS,
  UpdateSelfBodySchema,
  UpdateUserBodySchema,
  UserListQuerySchema,
  USER_FIELD_LIMITS,
  UserSchema,
  userInitials,
} from '../src/users';
import { UserListResponseSchema, UserWithSprinklersSchema } from '../src/user-list';
import { NOT_YET_REPORTED, expectRejected, expectUnknownKeyRejected, issuesOf } from './support';

/** A user as the API answers with it. */
function buildUser(overrides: Record<string, unknown> = {}) {
  return {
    id: 5,
    first_name: 'Anna',
    last_name: 'Nowak',
    company_name: 'Gospodarstwo Nowak',
    email: 'anna@example.com',
    phone: '+48 600 100 200',
    subscription: { active: true, expiry_date: '2026-12-31' },
    admin: false,
    language: 'pl',
    activated: true,
    ...overrides,
  };
}

/** What an administrator fills in to create a user. */
function buildCreateUserBody(overrides: Record<string, unknown> = {}) {
  return { first_name: 'Jan', last_name: 'Kowalski', email: 'jan@example.com', ...overrides };
}

const sprinkler = {
  id: 1,
  internalId: 'PIVOT-001',
  name: 'Pivot 1',
  lat: '52.41',
  lng: '16.93',
  ...NOT_YET_REPORTED,
};

describe('EmailSchema', () => {
  it.each([
    ['  Jan.Kowalski@Example.COM ', 'jan.kowalski@example.com'],
    ['ANNA@EXAMPLE.COM', 'anna@example.com'],
    ['\tanna+pivots@example.com\n', 'anna+pivots@example.com'],
    ['anna@example.com', 'anna@example.com'],
  ])('normalises %j to %j', (input, expected) => {
    expect(EmailSchema.parse(input)).toBe(expected);
  });

  it.each(['', '   ', 'anna', 'anna@', '@example.com', 'anna@example', 'an na@example.com', 'anna@@example.com'])(
    'rejects %j',
    (input) => {
      expectRejected(EmailSchema, input);
    },
  );

  it('rejects an address longer than 254 characters and a non-string', () => {
    expectRejected(EmailSchema, `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`);
    expectRejected(EmailSchema, null);
  });
});

describe('SubscriptionSchema', () => {
  it.each([
    [{ active: true, expiry_date: '2026-12-31' }],
    [{ active: false, expiry_date: '2025-01-31' }],
    [{ active: true, expiry_date: null }],
  ])('accepts %j', (subscription) => {
    expect(SubscriptionSchema.parse(subscription)).toEqual(subscription);
  });

  it.each([
    ['a dotted expiry date', { active: true, expiry_date: '31.12.2026' }],
    ['a missing expiry date', { active: true }],
    ['active as text', { active: 'true', expiry_date: null }],
  ])('rejects %s', (_label, subscription) => {
    expectRejected(SubscriptionSchema, subscription);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(SubscriptionSchema, { active: true, expiry_date: null });
  });
});

describe('UserSchema', () => {
  it('accepts a user, company and phone included or null', () => {
    expect(UserSchema.parse(buildUser())).toEqual(buildUser());
    expect(UserSchema.safeParse(buildUser({ company_name: null, phone: null })).success).toBe(true);
  });

  it.each([
    ['the request name of the company', { company_name: undefined, company: 'Farm' }],
    ['an unknown language', { language: 'de' }],
    ['admin as text', { admin: 'false' }],
    ['a missing activated flag', { activated: undefined }],
    ['a subscription without expiry date', { subscription: { active: true } }],
  ])('rejects %s', (_label, overrides) => {
    expectRejected(UserSchema, buildUser(overrides));
  });

  it('never carries the password', () => {
    expect(issuesOf(UserSchema, buildUser({ password: 'hash' }))).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys' }),
    ]);
  });
});

describe('userInitials', () => {
  it.each([
    ['Anna', 'Nowak', 'AN'],
    ['jan', 'kowalski', 'JK'],
    ['  łucja ', ' żak', 'ŁŻ'],
    ['Émile', 'Ørsted', 'ÉØ'],
    ['Anna', '', 'A'],
    ['', '', ''],
    ['𝒜da', 'Lovelace', '𝒜L'],
  ])('gives %j %j the initials %j', (first_name, last_name, initials) => {
    expect(userInitials({ first_name, last_name })).toBe(initials);
  });
});

describe('CreateUserBodySchema', () => {
  it('fills in the defaults', () => {
    expect(CreateUserBodySchema.parse(buildCreateUserBody())).toEqual({
      first_name: 'Jan',
      last_name: 'Kowalski',
      email: 'jan@example.com',
      company: null,
      phone: null,
      admin: false,
      language: 'pl',
      subscription_expiry_date: null,
    });
  });

  it('trims names, normalises the email and keeps the given values', () => {
    const body = buildCreateUserBody({
      first_name: ' Jan ',
      email: ' Jan@Example.com ',
      company: ' Agro ',
      phone: ' +48 (61) 123-45-67 ',
      admin: true,
      language: 'en',
      subscription_expiry_date: '2027-03-31',
    });
    expect(CreateUserBodySchema.parse(body)).toMatchObject({
      first_name: 'Jan',
      email: 'jan@example.com',
      company: 'Agro',
      phone: '+48 (61) 123-45-67',
      admin: true,
      language: 'en',
      subscription_expiry_date: '2027-03-31',
    });
  });

  it.each([
    ['an empty first name', { first_name: '  ' }],
    ['a missing last name', { last_name: undefined }],
    ['an invalid email', { email: 'jan.example.com' }],
    ['a phone with letters', { phone: '600 one two' }],
    ['a phone starting with a dash', { phone: '-600100200' }],
    ['a phone over 32 characters', { phone: `+${'1'.repeat(32)}` }],
    ['an unknown language', { language: 'cz' }],
    ['a dotted expiry date', { subscription_expiry_date: '31.03.2027' }],
    ['the response name of the company', { company_name: 'Agro' }],
  ])('rejects %s', (_label, overrides) => {
    expectRejected(CreateUserBodySchema, buildCreateUserBody(overrides));
  });

  it('is strict', () => {
    expectUnknownKeyRejected(CreateUserBodySchema, buildCreateUserBody());
  });

  it('takes each text field up to its limit in USER_FIELD_LIMITS, and not one character more', () => {
    const { name, company, email, phone } = USER_FIELD_LIMITS;
    const emailOf = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(length - 69)}.com`;
    const fields = (extra: number) => ({
      first_name: 'J'.repeat(name + extra),
      last_name: 'K'.repeat(name + extra),
      company: 'A'.repeat(company + extra),
      email: emailOf(email + extra),
      phone: '1'.repeat(phone + extra),
    });
    expect(CreateUserBodySchema.safeParse(buildCreateUserBody(fields(0))).success).toBe(true);
    for (const [field, value] of Object.entries(fields(1))) {
      expectRejected(CreateUserBodySchema, buildCreateUserBody({ [field]: value }));
    }
  });
});

describe('UpdateSelfBodySchema and UpdateUserBodySchema', () => {
  it('accept an empty update', () => {
    expect(UpdateSelfBodySchema.parse({})).toEqual({});
    expect(UpdateUserBodySchema.parse({})).toEqual({});
  });

  it('let users clear their company and phone', () => {
    expect(UpdateSelfBodySchema.parse({ company: null, phone: null })).toEqual({ company: null, phone: null });
    expect(UpdateSelfBodySchema.parse({ company: '  ', phone: '' })).toEqual({ company: null, phone: null });
  });

  it('normalise the email', () => {
    expect(UpdateSelfBodySchema.parse({ email: ' New@Example.com' })).toEqual({ email: 'new@example.com' });
  });

  it.each([
    ['admin', { admin: true }],
    ['the subscription', { subscription_expiry_date: '2030-01-01' }],
  ])('do not let users change %s about themselves', (_label, body) => {
    expect(issuesOf(UpdateSelfBodySchema, body)).toEqual([expect.objectContaining({ code: 'unrecognized_keys' })]);
    expect(UpdateUserBodySchema.safeParse(body).success).toBe(true);
  });

  it('let an administrator end the expiry of a subscription', () => {
    expect(UpdateUserBodySchema.parse({ subscription_expiry_date: null })).toEqual({ subscription_expiry_date: null });
  });

  it.each([
    ['an empty last name', { last_name: '' }],
    ['an invalid email', { email: 'x@' }],
    ['an unknown language', { language: 'fr' }],
  ])('reject %s', (_label, body) => {
    expectRejected(UpdateSelfBodySchema, body);
    expectRejected(UpdateUserBodySchema, body);
  });

  it('are strict', () => {
    expectUnknownKeyRejected(UpdateSelfBodySchema, { language: 'en' });
    expectUnknownKeyRejected(UpdateUserBodySchema, { admin: true });
  });
});

describe('password bodies', () => {
  const change = { oldPassword: 'old secret', newPassword: 'Irrigate#2026', repeatNewPassword: 'Irrigate#2026' };
  const setPassword = {
    uid: 12,
    token: 'c4f-token',
    newPassword: 'Irrigate#2026',
    repeatNewPassword: 'Irrigate#2026',
  };

  it('accept a password change as typed; the rules are the server’s', () => {
    expect(ChangePasswordBodySchema.parse(change)).toEqual(change);
    expect(ChangePasswordBodySchema.safeParse({ ...change, newPassword: 'weak' }).success).toBe(true);
  });

  it('take the uid of an emailed link as a number', () => {
    expect(SetPasswordBodySchema.parse(setPassword)).toEqual(setPassword);
    expectRejected(SetPasswordBodySchema, { ...setPassword, uid: '12' });
  });

  it.each([
    ['an empty old password', ChangePasswordBodySchema, { ...change, oldPassword: '' }],
    ['a missing repeat', ChangePasswordBodySchema, { ...change, repeatNewPassword: undefined }],
    ['an invalid uid', SetPasswordBodySchema, { ...setPassword, uid: 'abc' }],
    ['an empty token', SetPasswordBodySchema, { ...setPassword, token: '' }],
    ['a token over 200 characters', SetPasswordBodySchema, { ...setPassword, token: 't'.repeat(201) }],
  ])('reject %s', (_label, schema, body) => {
    expectRejected(schema, body);
  });

  it('are strict', () => {
    expectUnknownKeyRejected(ChangePasswordBodySchema, change);
    expectUnknownKeyRejected(SetPasswordBodySchema, setPassword);
  });

  it('ask for a well-formed email to send a reset link', () => {
    expect(PasswordEmailBodySchema.parse({ email: ' Anna@Example.com ' })).toEqual({ email: 'anna@example.com' });
    expectRejected(PasswordEmailBodySchema, { email: 'anna' });
    expectUnknownKeyRejected(PasswordEmailBodySchema, { email: 'anna@example.com' });
  });
});

describe('login and tokens', () => {
  it('normalises the login email and does not remember by default', () => {
    expect(LoginBodySchema.parse({ email: ' Anna@Example.COM', password: 'secret' })).toEqual({
      email: 'anna@example.com',
      password: 'secret',
      remember: false,
    });
    expect(LoginBodySchema.parse({ email: 'anna@example.com', password: 'secret', remember: true }).remember).toBe(
      true,
    );
  });

  it.each([
    ['an empty password', { email: 'anna@example.com', password: '' }],
    ['a missing email', { password: 'secret' }],
    ['remember as text', { email: 'anna@example.com', password: 'secret', remember: 'on' }],
  ])('rejects a login with %s', (_label, body) => {
    expectRejected(LoginBodySchema, body);
  });

  it('answers with the user and an access token', () => {
    const answer = { user: buildUser(), access: 'eyJhbGciOi' };
    expect(LoginResponseSchema.parse(answer)).toEqual(answer);
    expectRejected(LoginResponseSchema, { ...answer, access: '' });
    expectRejected(LoginResponseSchema, { ...answer, user: buildUser({ id: 'me' }) });
    expectUnknownKeyRejected(LoginResponseSchema, answer);
  });

  it('refreshes with a new access token', () => {
    expect(RefreshResponseSchema.parse({ access: 'eyJhbGciOi' })).toEqual({ access: 'eyJhbGciOi' });
    expectRejected(RefreshResponseSchema, { access: '' });
    expectUnknownKeyRejected(RefreshResponseSchema, { access: 'eyJhbGciOi' });
  });

  it('confirms with a message', () => {
    expect(MessageResponseSchema.parse({ message: 'Check your inbox' })).toEqual({ message: 'Check your inbox' });
    expectRejected(MessageResponseSchema, {});
    expectUnknownKeyRejected(MessageResponseSchema, { message: 'ok' });
  });
});

describe('UserListQuerySchema', () => {
  it('defaults to the first page sorted by id, ascending', () => {
    expect(UserListQuerySchema.parse({})).toEqual({ page: 1, pageSize: 25, sort: 'id', order: 'asc' });
  });

  it('coerces the query string and trims the search', () => {
    expect(UserListQuerySchema.parse({ page: '3', pageSize: '10', search: ' nowak ', exclude: '4' })).toEqual({
      page: 3,
      pageSize: 10,
      search: 'nowak',
      sort: 'id',
      order: 'asc',
      exclude: 4,
    });
  });

  it.each(USER_SORT_FIELDS.map((field) => [field]))('sorts by %s', (sort) => {
    expect(UserListQuerySchema.parse({ sort, order: 'desc' })).toMatchObject({ sort, order: 'desc' });
  });

  it.each([
    ['an unknown sort field', { sort: 'password' }],
    ['a page size above 100', { pageSize: 500 }],
    ['page 0', { page: 0 }],
    ['an exclude of zero', { exclude: '0' }],
    ['a search over 100 characters', { search: 'q'.repeat(101) }],
  ])('rejects %s', (_label, query) => {
    expectRejected(UserListQuerySchema, query);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(UserListQuerySchema, { page: '1' });
  });
});

describe('UserWithSprinklersSchema and UserListResponseSchema', () => {
  const row = { user: buildUser(), sprinklers: [{ ...sprinkler, level: 'watch' }] };

  it('accepts a user with machines, in a list envelope', () => {
    expect(UserWithSprinklersSchema.parse(row).sprinklers[0]).toMatchObject({ lat: 52.41, lng: 16.93 });
    expect(UserListResponseSchema.parse({ count: 1, data: [row] }).data).toHaveLength(1);
  });

  it('rejects a machine with a malformed latitude and an answer without data', () => {
    expectRejected(UserWithSprinklersSchema, { ...row, sprinklers: [{ ...sprinkler, lat: '52,41' }] });
    expectRejected(UserListResponseSchema, { count: 1 });
  });

  it('names the level of each grant', () => {
    expectRejected(UserWithSprinklersSchema, { ...row, sprinklers: [sprinkler] });
    expectRejected(UserWithSprinklersSchema, { ...row, sprinklers: [{ ...sprinkler, level: 'admin' }] });
  });

  it('is strict', () => {
    expectUnknownKeyRejected(UserWithSprinklersSchema, row);
    expectUnknownKeyRejected(UserListResponseSchema, { count: 0, data: [] });
  });
});
