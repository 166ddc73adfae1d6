import { UserSchema } from '@pivot/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { apiCall } from '@/lib/api-client';
import { connection } from '@/lib/connection';
import { dismissToast, toastStore } from '@/ui/toast/toast-store';
import { showApiFailuresAsToasts } from './api-failure-toasts';

/** The server gives these answers in turn; after them no answer comes at all (a lost connection). */
function serverAnswers(...answers: [status: number, body: unknown][]): void {
  vi.stubGlobal('fetch', async () => {
    const next = answers.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(next[1]), { status: next[0] });
  });
}

const getUser = () => apiCall({ method: 'GET', path: '/user/', response: UserSchema });
const login = (handlesFailure?: () => boolean) =>
  apiCall({ method: 'POST', path: '/user/login/', body: {}, response: UserSchema, handlesFailure });
const toastTitles = () => toastStore.get().map((toast) => toast.title);

let stop: () => void;
beforeAll(async () => {
  await activateLocale('en');
  document.cookie = 'csrf_token=token-1; path=/';
  stop = showApiFailuresAsToasts();
});
afterAll(() => stop());
afterEach(() => {
  vi.unstubAllGlobals();
  for (const toast of toastStore.get()) dismissToast(toast.id);
});

describe('API failures as toasts', () => {
  it('show each failure in the user language, a wrong login as a warning, in the order they came', async () => {
    serverAnswers([403, { code: 'invalid_credentials', message: 'Nieprawidłowy email lub hasło' }], [404, '<html>']);
    await expect(login()).resolves.toBe(false);
    await getUser();
    // The error codes' texts are not on the page yet: they come with the first refusal, and the
    // failure after it, whose text is there, waits its turn.
    await vi.waitFor(() =>
      expect(toastStore.get()).toEqual([
        expect.objectContaining({ variant: 'warning', title: 'Incorrect email or password' }),
        expect.objectContaining({ variant: 'error', title: 'Object not found' }),
      ]),
    );
  });

  it('fall back to the status when the answer has no known error body', async () => {
    // A read that got a 502 is tried once more.
    serverAnswers([404, '<html>'], [502, 'bad gateway'], [502, 'bad gateway']);
    await getUser();
    await getUser();
    await vi.waitFor(() => expect(toastTitles()).toEqual(['Object not found', 'Server error']));
  });

  it('leave a read that got no answer to the no-connection line', async () => {
    serverAnswers();
    await getUser();
    expect(toastTitles()).toEqual([]);
    expect(connection.get().online).toBe(false);
  });

  it('say that the user is not logged in when the session cannot be renewed', async () => {
    serverAnswers([401, { code: 'unauthorized', message: 'x' }], [401, { code: 'unauthorized', message: 'x' }]);
    await getUser();
    await vi.waitFor(() =>
      expect(toastStore.get()).toEqual([expect.objectContaining({ variant: 'error', title: 'User not logged in' })]),
    );
  });

  it('say that something went wrong for an answer outside the contract', async () => {
    serverAnswers([200, { email: 42 }]);
    await getUser();
    await vi.waitFor(() => expect(toastTitles()).toEqual(['Something went wrong']));
  });

  it('leave out a failure its caller shows itself', async () => {
    serverAnswers([403, { code: 'invalid_credentials', message: 'x' }]);
    await login(() => true);
    expect(toastStore.get()).toEqual([]);
  });
});
