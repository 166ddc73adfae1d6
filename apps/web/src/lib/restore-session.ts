import { callEndpoint, refreshAccessToken } from './api-client';
import { laterEndpoint } from './checked-later';
import { session } from './session';

/** The user's details, read with their schema once it has come (checked-later.ts). */
const profileEndpoint = laterEndpoint((contracts) => contracts.usersEndpoints.profile, 'GET', '/user/');

type Restoring = {
  /** The refresh call has been sent. */
  sent: Promise<void>;
  /** The access token the refresh cookie brought back, or null: known before the user's details. */
  token: Promise<string | null>;
  /** The session is signed in or out. */
  done: Promise<void>;
};

let restoring: Restoring | null = null;

async function restore(refreshed: Promise<string | null>): Promise<void> {
  const token = await refreshed;
  // A user's details refused once checked end the session, as if refused on arrival.
  const user = token ? await callEndpoint(profileEndpoint, { refusedLater: () => session.signOut() }) : false;
  if (token && user) session.signIn(user, token);
  else session.signOut();
}

function startRestoring(): Restoring {
  if (!restoring) {
    let markSent: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (markSent = resolve));
    const token = refreshAccessToken(null, markSent);
    restoring = { sent, token, done: restore(token) };
  }
  return restoring;
}

/** On page load the refresh cookie, if any, brings the session back: tried once per page. */
export function restoreSession(): Promise<void> {
  return startRestoring().done;
}

/**
 * Resolves once the page load's refresh call has been sent, which may wait for another tab's
 * refresh (the refresh lock).
 */
export function sessionCallSent(): Promise<void> {
  return startRestoring().sent;
}

/**
 * The access token restored on page load, or null without a session. With it, the screen's
 * first data can be asked for beside the user's own details (`GET /user/`).
 */
export function restoredAccessToken(): Promise<string | null> {
  return startRestoring().token;
}
