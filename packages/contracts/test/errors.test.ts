import { describe, expect, it } from 'vitest';
import {
  ERROR_STATUS,
  type ErrorCode,
  ErrorBodySchema,
  ErrorCodeSchema,
  PasswordCallErrorSchema,
  PasswordErrorSchema,
  ValidationIssueSchema,
} from '../src/errors';
import { expectRejected, expectUnknownKeyRejected } from './support';

const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

describe('ERROR_STATUS', () => {
  // docs/product.md#errors and the decisions on adding machines, programs per machine, permissions and hidden machines.
  it.each<[ErrorCode, number, string]>([
    ['validation_error', 400, 'query error'],
    ['password_rejected', 400, 'password change: field errors returned to the form'],
    ['unauthorized', 401, 'user not logged in'],
    ['invalid_credentials', 403, 'login: incorrect email or password'],
    ['current_password_required', 400, 'own email change: the current password is missing'],
    ['current_password_incorrect', 403, 'own email change: the current password is wrong'],
    ['forbidden', 403, 'no permissions'],
    ['not_found', 404, 'object not found'],
    ['sprinkler_not_on_broker', 404, 'new machine: ID not found on the message broker'],
    ['sprinkler_not_found', 404, 'machine does not exist'],
    ['user_not_found', 404, 'permissions: user does not exist'],
    ['program_not_found', 404, 'delete or send program: program does not exist'],
    ['sprinkler_exists', 409, 'new machine: ID already exists'],
    ['access_not_granted', 409, 'permissions: the user had no access to this machine'],
    ['too_many_programs', 409, 'add program: too many programs on the machine'],
    ['email_taken', 409, 'create or update user: email already exists'],
    ['sprinkler_processing_error', 500, 'adding a machine: reply that cannot be processed'],
    ['internal_error', 500, 'server error'],
  ])('maps %s to %d (%s)', (code, status) => {
    expect(ERROR_STATUS[code]).toBe(status);
  });

  it('maps every code to an HTTP error status', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code], code).toBeLessThan(600);
    }
  });

  it('uses codes written in snake_case', () => {
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});

describe('ErrorCodeSchema', () => {
  it('accepts exactly the codes of ERROR_STATUS', () => {
    expect([...ErrorCodeSchema.options].sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(['teapot', 'NOT_FOUND', '', 404])('rejects %j', (code) => {
    expectRejected(ErrorCodeSchema, code);
  });
});

describe('ValidationIssueSchema', () => {
  it('accepts a path and a message', () => {
    const issue = { path: 'features.0.properties.name', message: 'Enter the sector name' };
    expect(ValidationIssueSchema.parse(issue)).toEqual(issue);
  });

  it('rejects a path given as an array and unknown keys', () => {
    expectRejected(ValidationIssueSchema, { path: ['name'], message: 'x' });
    expectUnknownKeyRejected(ValidationIssueSchema, { path: '', message: 'x' });
  });
});

describe('ErrorBodySchema', () => {
  const notFound = { code: 'not_found', message: 'Object not found' };

  it('accepts an error with or without validation issues', () => {
    expect(ErrorBodySchema.parse(notFound)).toEqual(notFound);
    const invalid = {
      code: 'validation_error',
      message: 'Query error',
      issues: [{ path: 'page', message: 'Too small' }],
    };
    expect(ErrorBodySchema.parse(invalid)).toEqual(invalid);
  });

  it.each([
    ['an unknown code', { ...notFound, code: 'oops' }],
    ['a missing message', { code: 'not_found' }],
    ['a missing code', { message: 'Object not found' }],
    ['issues of the wrong shape', { ...notFound, issues: ['page'] }],
  ])('rejects %s', (_label, body) => {
    expectRejected(ErrorBodySchema, body);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(ErrorBodySchema, notFound);
  });
});

describe('PasswordErrorSchema', () => {
  const rejected = { code: 'password_rejected', message: 'Password rejected' };

  it('accepts per-field error lists, each optional', () => {
    expect(PasswordErrorSchema.parse(rejected)).toEqual(rejected);
    const full = {
      ...rejected,
      oldPassword: ['Wrong password'],
      newPassword: ['min_length', 'digit'],
      repeatNewPassword: ['Passwords must be the same'],
    };
    expect(PasswordErrorSchema.parse(full)).toEqual(full);
  });

  it.each([
    ['another code', { ...rejected, code: 'validation_error' }],
    ['a field error that is not a list', { ...rejected, newPassword: 'too short' }],
    ['a list of non-strings', { ...rejected, oldPassword: [1] }],
  ])('rejects %s', (_label, body) => {
    expectRejected(PasswordErrorSchema, body);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(PasswordErrorSchema, rejected);
  });
});

describe('PasswordCallErrorSchema', () => {
  it.each([
    ['per-field problems', { code: 'password_rejected', message: 'Rejected', newPassword: ['min_length'] }],
    ['an expired link', { code: 'invalid_link', message: 'The link has expired' }],
    ['a validation error', { code: 'validation_error', message: 'Query error', issues: [] }],
  ])('accepts %s', (_label, body) => {
    expect(PasswordCallErrorSchema.parse(body)).toEqual(body);
  });

  it.each([
    ['field lists on another code', { code: 'invalid_link', message: 'x', newPassword: ['min_length'] }],
    ['an unknown code', { code: 'weak_password', message: 'x' }],
    ['a missing message', { code: 'password_rejected' }],
  ])('rejects %s', (_label, body) => {
    expectRejected(PasswordCallErrorSchema, body);
  });
});
