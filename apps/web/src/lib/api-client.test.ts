import { UserSchema, devicesEndpoints, logsEndpoints, sessionEndpoints, webhooksEndpoints } from '@pivot/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonAnswer as json, queuedFetch } from '@/test-fetch';
import {
  type ApiFailure,
  apiCall,
  callEndpoint,
  onApiFailure,
  onServerChange,
  onSessionExpired,
  refreshAccessToken,
} from './api-client';
import { session } from './session';
import { REFRESH_PATH } from './session-refresh';

const user = {
  id: 7,
  first_name: 'Anna',
  last_name: 'Nowak',
  company_name: null,
  email: 'anna@farm.pl',
  phone: null,
  subscription: { active: true, expiry_date: null },
  admin: false,
  language: 'pl',
  activated: true,
};

const { calls, serve } = queuedFetch();
/** What the client told `onApiFailure` (the app shows it as toasts). */
const failures: ApiFailure[] = [];
onApiFailure((failure) => failures.push(failure));

beforeEach(() => {
  failures.length = 0;
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(UserSchema.parse(user), 'access-1');
});

const getUser = () => apiCall({ method: 'GET', path: '/user/', response: UserSchema });

describe('the API client', () => {
  it('sends the bearer token, the CSRF pair on unsafe calls, and parses the answer', async () => {
    serve(json(200, user));
    await expect(apiCall({ method: 'PATCH', path: '/user/', body: {}, response: UserSchema })).resolves.toEqual(user);
    expect(calls[0]).toMatchObject({
      url: '/api/user/',
      method: 'PATCH',
      headers: { Authorization: 'Bearer access-1', 'X-CSRF-Token': 'token-1' },
    });
  });

  it('tells of every answered unsafe call, failed ones too, but not of reads or calls without an answer', async () => {
    const changed: string[] = [];
    const stop = onServerChange((path) => changed.push(path));
    serve(json(200, user), json(200, user), json(504, { code: 'sprinkler_unresponsive', message: 'No answer' }));
    await getUser();
    await apiCall({ method: 'PATCH', path: '/user/', body: {}, response: UserSchema });
    await apiCall({ method: 'POST', path: '/sprinkler/3/motion', body: {}, response: UserSchema });
    await apiCall({ method: 'POST', path: '/user/logout/', response: UserSchema });
    stop();
    expect(changed).toEqual(['/user/', '/sprinkler/3/motion']);
  });

  it('tries a safe call once more on a passing failure, an unsafe one never', async () => {
    serve(json(503, { code: 'internal_error', message: 'x' }), json(200, user));
    await expect(getUser()).resolves.toEqual(user);
    serve(json(503, { code: 'internal_error', message: 'x' }), json(200, user));
    await expect(apiCall({ method: 'POST', path: '/user/', body: {}, response: UserSchema })).resolves.toBe(false);
    expect(calls.map((call) => call.method)).toEqual(['GET', 'GET', 'POST']);
  });

  it('gives each unsafe action one Idempotency-Key, the same on every send of it, and asks again once for a lost answer', async () => {
    const motion = () =>
      apiCall({ method: 'POST', path: '/sprinkler/3/motion', body: { motion: 'front' }, response: UserSchema });
    // The answer is lost on the way (no response), then the same request comes back with its answer.
    serve(() => Promise.reject(new TypeError('Failed to fetch')) as never, json(200, user));
    await expect(motion()).resolves.toEqual(user);
    serve(json(401, { code: 'unauthorized', message: 'x' }), json(200, { access: 'access-2' }), json(200, user));
    await expect(motion()).resolves.toEqual(user);
    await expect(getUser()).resolves.toBe(false);
    const keys = calls.map((call) => call.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[4]).toBe(keys[2]);
    expect(calls[3]?.url).toBe('/api/user/refresh-token/');
    expect(keys[3]).toBeUndefined();
    expect(keys[5]).toBeUndefined();
  });

  it('renews the access token once on a 401 and repeats the call with it', async () => {
    serve(json(401, { code: 'unauthorized', message: 'x' }), json(200, { access: 'access-2' }), json(200, user));
    await expect(getUser()).resolves.toEqual(user);
    expect(calls.map((call) => call.url)).toEqual(['/api/user/', '/api/user/refresh-token/', '/api/user/']);
    expect(calls[2]?.headers.Authorization).toBe('Bearer access-2');
    expect(session.accessToken()).toBe('access-2');
  });

  it('shares one refresh among calls that fail together', async () => {
    const unauthorized = json(401, { code: 'unauthorized', message: 'x' });
    serve(unauthorized, unauthorized, json(200, { access: 'access-2' }), json(200, user), json(200, user));
    await Promise.all([getUser(), getUser()]);
    expect(calls.filter((call) => call.url.endsWith('/refresh-token/'))).toHaveLength(1);
  });

  it('tells when the refresh call has left, before its answer, and at once to a caller sharing it', async () => {
    let answer: (response: Response) => void = () => undefined;
    serve(() => new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response);
    const sent: string[] = [];
    const first = refreshAccessToken(null, () => sent.push(`first, ${calls.length} call`));
    const second = refreshAccessToken(null, () => sent.push('second'));
    await vi.waitFor(() => expect(sent).toEqual(['second', 'first, 1 call']));
    expect(calls[0]?.url).toBe('/api/user/refresh-token/');
    answer(json(200, { access: 'access-2' })());
    await expect(Promise.all([first, second])).resolves.toEqual(['access-2', 'access-2']);
  });

  it("sends the refresh to the path the contracts declare (the page's first script cannot import them)", () => {
    expect(REFRESH_PATH).toBe(sessionEndpoints.refresh.path);
  });

  it('sends the user to log in, with the way back, when the session cannot be renewed', async () => {
    const expired = vi.fn();
    const stop = onSessionExpired(expired);
    window.history.replaceState(null, '', '/en/dashboard/activity?type=unread');
    serve(json(401, { code: 'unauthorized', message: 'x' }), json(401, { code: 'unauthorized', message: 'x' }));
    await expect(getUser()).resolves.toBe(false);
    expect(expired).toHaveBeenCalledWith('/en/dashboard/activity?type=unread');
    expect(session.get().status).toBe('signed-out');
    expect(failures).toMatchObject([{ status: 401, error: { code: 'unauthorized' } }]);
    stop();
  });

  it('tells of each failure its caller does not handle, with the error code of the answer', async () => {
    const login = (handlesFailure?: () => boolean) =>
      apiCall({ method: 'POST', path: '/user/login/', body: {}, response: UserSchema, handlesFailure });
    const invalid = json(403, { code: 'invalid_credentials', message: 'Nieprawidłowy email lub hasło' });
    serve(invalid, invalid);
    await expect(login()).resolves.toBe(false);
    await expect(login(() => true)).resolves.toBe(false);
    expect(failures).toEqual([
      {
        status: 403,
        error: { code: 'invalid_credentials', message: 'Nieprawidłowy email lub hasło' },
        body: { code: 'invalid_credentials', message: 'Nieprawidłowy email lub hasło' },
      },
    ]);
  });

  it('gives the status alone when the answer has no known error body, and null when none came', async () => {
    serve(json(404, '<html>'), json(502, 'bad gateway'), json(502, 'bad gateway'));
    await getUser();
    await getUser();
    await apiCall({ method: 'PATCH', path: '/user/', body: {}, response: UserSchema });
    // A read without an answer is not told: the pages say once that the connection is lost.
    await getUser();
    expect(failures).toEqual([
      { status: 404, error: null, body: '<html>' },
      { status: 502, error: null, body: 'bad gateway' },
      { status: null, error: null, body: null },
    ]);
  });

  it('treats an answer outside the contract as a failure', async () => {
    serve(json(200, { ...user, email: 42 }));
    await expect(getUser()).resolves.toBe(false);
    expect(failures).toEqual([{ status: null, error: null, body: { ...user, email: 42 } }]);
  });

  it("calls a declared endpoint at its path, parameters filled in and encoded, and reads its answer with the declaration's schema", async () => {
    const secret = { device: { machineId: 'PIVOT 7' }, secret: 's' };
    serve(json(200, { count: 0, data: [] }), json(200, secret));
    await expect(callEndpoint(logsEndpoints.list, { query: { type: 'unread', pageSize: 1 } })).resolves.toEqual({
      count: 0,
      data: [],
    });
    // The answer is parsed with the declared schema: this one is not a device's secret answer.
    await expect(callEndpoint(devicesEndpoints.replaceSecret, { params: { machineId: 'PIVOT 7' } })).resolves.toBe(
      false,
    );
    expect(calls.map(({ url, method }) => `${method} ${url}`)).toEqual([
      'GET /api/logs/?type=unread&pageSize=1',
      'POST /api/device/PIVOT%207/secret/',
    ]);
  });

  it('reads the empty answer of a 204 as the null its declaration says', async () => {
    serve(() => new Response(null, { status: 204 }));
    await expect(callEndpoint(webhooksEndpoints.admin.remove, { params: { id: 12 } })).resolves.toBeNull();
    expect(calls[0]).toMatchObject({ url: '/api/admin/webhooks/12/', method: 'DELETE' });
  });
});
