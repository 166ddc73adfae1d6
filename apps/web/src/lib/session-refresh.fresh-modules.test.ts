import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonAnswer as json, queuedFetch } from '@/test-fetch';

const { calls, serve } = queuedFetch();

/** A page just loaded: the client and the page's first script's module, fresh (their page-load state is the subject). */
async function loadPage() {
  vi.resetModules();
  const [client, early, { session }] = await Promise.all([
    import('./api-client'),
    import('./session-refresh'),
    import('./session'),
  ]);
  return { refreshAccessToken: client.refreshAccessToken, sendEarlyRefresh: early.sendEarlyRefresh, session };
}

beforeEach(() => {
  document.cookie = 'csrf_token=token-1; path=/';
});

describe("the page load's refresh", () => {
  it("is taken from the page's first script, once, rather than sent again", async () => {
    const page = await loadPage();
    serve(json(200, { access: 'access-2' }), json(200, { access: 'access-3' }));
    page.sendEarlyRefresh();
    const sent: string[] = [];
    await expect(page.refreshAccessToken(null, () => sent.push('sent'))).resolves.toBe('access-2');
    expect(sent).toEqual(['sent']);
    expect(calls.map((call) => [call.method, call.url, call.headers['X-CSRF-Token']])).toEqual([
      ['POST', '/api/user/refresh-token/', 'token-1'],
    ]);
    expect(page.session.accessToken()).toBe('access-2');

    // Taken once: a later refresh sends its own call.
    await expect(page.refreshAccessToken('access-2')).resolves.toBe('access-3');
    expect(calls).toHaveLength(2);
  });

  it("is not sent when the app's code ran first and sent its own: a later renewal is not handed its stale answer", async () => {
    const page = await loadPage();
    // Before a sign-in: the app's restore is refused (no cookie), then the person signs in.
    serve(json(401, { code: 'unauthorized', message: 'x' }));
    await expect(page.refreshAccessToken(null)).resolves.toBeNull();
    page.sendEarlyRefresh();
    expect(calls).toHaveLength(1);

    // Their access token expires: the renewal sends a call of its own and gets the new token.
    serve(json(200, { access: 'access-2' }));
    await expect(page.refreshAccessToken('access-1')).resolves.toBe('access-2');
    expect(calls).toHaveLength(2);
  });
});
