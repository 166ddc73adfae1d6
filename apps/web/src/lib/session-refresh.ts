import { env } from '@/config/env';
import { readCookie } from './cookies';

/**
 * The session's refresh call, shared by the API client and the page's first script
 * (session-start.ts). It imports nothing of the app's, so that first script stays a few hundred
 * bytes and can send the call before React and the app's code have come.
 */

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'X-CSRF-Token';
/** The refresh call's path below the API base, as the contracts declare it (`sessionEndpoints.refresh`). */
export const REFRESH_PATH = '/user/refresh-token/';
/** The call that sets the CSRF cookie (every answer sets it): the cheapest, the health check. */
export const HEALTH_PATH = '/health';
const REFRESH_LOCK = 'pivot-refresh-token';

/**
 * Refresh tokens are single use, and a used one coming back ends the whole session, so two
 * tabs must never present the same one: the Web Locks API lets one tab refresh at a time,
 * and the next one then finds the cookie already replaced.
 */
export function withRefreshLock<Result>(task: () => Promise<Result>): Promise<Result> {
  return 'locks' in navigator ? navigator.locks.request(REFRESH_LOCK, task) : task();
}

let early: Promise<Response | null> | null = null;
/**
 * Whether the app has asked for the page load's refresh. On a loaded phone the app's code can run
 * before the page's first script: the app has sent its own then, and an early call sent after it
 * would rotate the cookie for nobody, its answer kept and handed to a later refresh long after its
 * token had expired (or, before a sign-in, a refusal that signed the person out at their first renewal).
 */
let asked = false;

/**
 * Sends the page load's refresh call at once (session-start.ts): on a phone, React and the app's
 * code take a second to come, and the screen's data waits for the token this call brings back.
 * The answer is kept for the app's restore, which takes it (takeEarlyRefresh) rather than send
 * one of its own. Under the refresh lock, like every refresh; null when no answer came.
 */
export function sendEarlyRefresh(): void {
  if (asked) return;
  early = withRefreshLock(async () => {
    try {
      if (!readCookie(CSRF_COOKIE)) await fetch(`${env.apiBase}${HEALTH_PATH}`, { credentials: 'include' });
      return await fetch(`${env.apiBase}${REFRESH_PATH}`, {
        method: 'POST',
        credentials: 'include',
        headers: { Accept: 'application/json', [CSRF_HEADER]: readCookie(CSRF_COOKIE) ?? '' },
      });
    } catch {
      return null;
    }
  });
}

/** The early refresh's answer, once: the page's first refresh uses it; later ones send their own. */
export function takeEarlyRefresh(): Promise<Response | null> | null {
  asked = true;
  const taken = early;
  early = null;
  return taken;
}
