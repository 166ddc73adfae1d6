import { type ErrorCode, ERROR_STATUS } from '@pivot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '@/lib/api-client';
import { activateWholeCatalogue } from '@/test-utils';
import { toastStore } from '@/ui/toast/toast-store';
import { addSprinklerFailureToast, permissionsFailureToast, showsSpecificFailure, userFailureToast } from './failures';

const failure = (code: ErrorCode): ApiFailure => ({
  status: ERROR_STATUS[code],
  error: { code, message: 'from the server' },
  body: null,
});
const byStatus = (status: number | null): ApiFailure => ({ status, error: null, body: null });

beforeAll(() => activateWholeCatalogue('en'));

describe("the admin calls' own messages (docs/product.md#errors)", () => {
  it('warn that a user with the email exists, and leave other failures to the API client', () => {
    expect(userFailureToast(failure('email_taken'))).toEqual({
      variant: 'warning',
      title: 'Email already in use',
      message: 'A user with this email already exists.',
    });
    expect(userFailureToast(failure('last_admin'))).toBeNull();
    expect(userFailureToast(failure('validation_error'))).toBeNull();
  });

  it('tell the three ways adding a machine fails', () => {
    expect(addSprinklerFailureToast(failure('sprinkler_not_on_broker'))).toMatchObject({
      variant: 'error',
      message: 'Machine with this ID not found on the message broker.',
    });
    expect(addSprinklerFailureToast(failure('sprinkler_exists'))).toMatchObject({
      variant: 'error',
      message: 'Machine with this ID already exists.',
    });
    const processing = { variant: 'error', message: "The machine's answer could not be processed. Try again." };
    expect(addSprinklerFailureToast(failure('sprinkler_processing_error'))).toMatchObject(processing);
    expect(addSprinklerFailureToast(byStatus(504))).toMatchObject(processing);
    expect(addSprinklerFailureToast(byStatus(400))).toBeNull();
    expect(addSprinklerFailureToast(byStatus(403))).toBeNull();
    expect(addSprinklerFailureToast(byStatus(null))).toBeNull();
  });

  it('say a missing machine or user is an error, and revoking no access a warning', () => {
    expect(permissionsFailureToast(failure('not_found'))).toMatchObject({
      variant: 'error',
      message: 'Machine or user does not exist.',
    });
    expect(permissionsFailureToast(failure('access_not_granted'))).toMatchObject({
      variant: 'warning',
      message: 'The user had no access to this machine.',
    });
    expect(permissionsFailureToast(byStatus(500))).toBeNull();
  });

  it('show the specific toast instead of the generic one', () => {
    toastStore.set([]);
    const handles = showsSpecificFailure(permissionsFailureToast);
    expect(handles(failure('access_not_granted'))).toBe(true);
    expect(toastStore.get()).toMatchObject([{ variant: 'warning', title: 'No access to revoke' }]);
    expect(handles(byStatus(500))).toBe(false);
    expect(toastStore.get()).toHaveLength(1);
  });
});
