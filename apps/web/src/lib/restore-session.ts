import { UserSchema } from '@pivot/contracts';
import { apiCall, refreshAccessToken } from './api-client';
import { session } from './session';

let restoring: Promise<void> | null = null;

async function restore(): Promise<void> {
  const token = await refreshAccessToken();
  const user = token ? await apiCall({ method: 'GET', path: '/user/', response: UserSchema }) : false;
  if (token && user) session.signIn(user, token);
  else session.signOut();
}

/** On page load the refresh cookie, if any, brings the session back: tried once per page. */
export function restoreSession(): Promise<void> {
  restoring ??= restore();
  return restoring;
}
