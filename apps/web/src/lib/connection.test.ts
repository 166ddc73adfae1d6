import { UserSchema } from '@pivot/contracts';
import { onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiFailure, apiCall, apiRequest, onApiFailure } from './api-client';
import { NoConnectionError, PROBE_EVERY_MS, connection, keepWhileOffline } from './connection';
import { followEventStream } from './follow-event-stream';
import { queryClient } from './query-client';
import { session } from './session';

const NOW = new Date(2026, 10, 27, 14, 2, 0).getTime();
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

type Answer = (init: RequestInit) => Response;
let answers: Answer[] = [];
const requested: string[] = [];
const failures: ApiFailure[] = [];
onApiFailure((failure) => failures.push(failure));
let browserOnline = true;

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An event stream that stays open, and breaks off as a real one does when its request is aborted. */
const openStream: Answer = (init) => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(': open\n\n'));
      init.signal?.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
};

const getUser = () => apiCall({ method: 'GET', path: '/user/', response: UserSchema });
const settle = () => vi.advanceTimersByTimeAsync(0);

/** The browser's own word on its network, with the event it fires. */
function browserSays(online: boolean) {
  browserOnline = online;
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: NOW });
  answers = [];
  requested.length = 0;
  failures.length = 0;
  browserOnline = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => browserOnline);
  document.cookie = 'csrf_token=token-1; path=/';
  session.signIn(UserSchema.parse(user), 'access-1');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    requested.push(url);
    if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    const next = answers.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return next(init);
  });
  // Every test starts connected, its last answer now.
  connection.noteAnswer();
  // As the app's QueryClientProvider does: TanStack Query follows the connection while it is mounted.
  queryClient.mount();
});

afterEach(() => {
  queryClient.unmount();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the connection', () => {
  it('works whenever an answer comes, whatever its status: a 404 or a 500 is not a lost connection', async () => {
    answers = [json(500, {}), json(500, {}), json(404, {})];
    await expect(getUser()).resolves.toBe(false);
    await expect(getUser()).resolves.toBe(false);
    expect(connection.get()).toEqual({ online: true, knownAt: null });
    expect(onlineManager.isOnline()).toBe(true);
    // Those are failures the user is told of, as ever.
    expect(failures.map((failure) => failure.status)).toEqual([500, 404]);
  });

  it('is lost when a request gets no answer, known as of the last answer; a read then tells no failure', async () => {
    answers = [json(200, user)];
    await expect(getUser()).resolves.toEqual(user);
    vi.setSystemTime(NOW + 60_000);

    await expect(getUser()).resolves.toBe(false);
    expect(connection.get()).toEqual({ online: false, knownAt: NOW });
    // TanStack Query pauses its reads meanwhile, by the app's judgement, not the browser's (still "online").
    expect(onlineManager.isOnline()).toBe(false);
    expect(failures).toEqual([]);
  });

  it('is not lost by a request its page aborted', async () => {
    const aborted = new AbortController();
    aborted.abort();
    await apiRequest({ method: 'GET', path: '/user/', response: UserSchema, signal: aborted.signal });
    expect(connection.isOnline()).toBe(true);
  });

  it('while lost, asks the server again every few seconds, and is back with its first answer', async () => {
    await getUser();
    expect(connection.isOnline()).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(requested.filter((url) => url.endsWith('/health'))).toHaveLength(1);
    expect(connection.isOnline()).toBe(false);

    answers = [json(503, {})];
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(connection.get()).toEqual({ online: true, knownAt: null });
    expect(onlineManager.isOnline()).toBe(true);
  });

  it('is lost at once when the browser says it is offline, and checks its word before trusting it is back', async () => {
    browserSays(false);
    expect(connection.get()).toEqual({ online: false, knownAt: NOW });
    // Nothing is asked while the browser has no network at all.
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS * 3);
    expect(requested).toEqual([]);

    // A phone back "online" with no route yet: still lost.
    browserSays(true);
    await settle();
    expect(requested).toHaveLength(1);
    expect(connection.isOnline()).toBe(false);
    answers = [json(200, {})];
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(connection.isOnline()).toBe(true);
  });

  it('lets a query keep what it showed when a read fails for want of a connection, and only then', async () => {
    answers = [json(404, {})];
    await expect(keepWhileOffline(getUser())).resolves.toBe(false);
    await expect(keepWhileOffline(getUser())).rejects.toBeInstanceOf(NoConnectionError);
  });
});

describe('what is kept for a lost connection', () => {
  it('lives in memory only, for the signed-in user: a sign-out clears it', () => {
    queryClient.setQueryData(['sprinklers', 'list'], [{ id: 1 }]);
    session.signOut({ byUser: true });
    expect(queryClient.getQueryData(['sprinklers', 'list'])).toBeUndefined();
    expect(sessionStorage.length + localStorage.length).toBe(0);
  });
});

describe('a followed event stream', () => {
  it('is closed when the connection is lost, and opened again at once, as a reconnect, when it is back', async () => {
    const opened: boolean[] = [];
    const stop = new AbortController();
    answers = [openStream];
    void followEventStream({
      path: '/sprinkler/events',
      onEvent: () => undefined,
      onOpen: (reconnected) => opened.push(reconnected),
      signal: stop.signal,
    });
    await settle();
    expect(opened).toEqual([false]);

    browserSays(false);
    await settle();
    // Closed, and tried once more at once: without a network that fails, and it waits.
    expect(requested.filter((url) => url.endsWith('/sprinkler/events'))).toHaveLength(2);

    // Long before its 1 s… 30 s wait would end, the connection's return opens it.
    answers = [json(200, {}), openStream];
    browserSays(true);
    await settle();
    expect(connection.isOnline()).toBe(true);
    expect(opened).toEqual([false, true]);
    stop.abort();
  });
});
