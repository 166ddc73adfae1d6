import type { User } from '@pivot/contracts';
import { createStore, useStore } from '@/config/create-store';

/**
 * Who is signed in. `unknown` lasts until the first refresh at start-up has answered.
 * The access token lives only in memory; the refresh token is an httpOnly cookie the page never sees.
 */
export type Session =
  | { status: 'unknown'; user: null }
  | { status: 'signed-out'; user: null; byUser: boolean }
  | { status: 'signed-in'; user: User };

const sessionStore = createStore<Session>({ status: 'unknown', user: null });
let accessToken: string | null = null;

export const session = {
  get: sessionStore.get,
  subscribe: sessionStore.subscribe,
  accessToken: () => accessToken,
  setAccessToken(token: string) {
    accessToken = token;
  },
  signIn(user: User, token: string) {
    accessToken = token;
    sessionStore.set({ status: 'signed-in', user });
  },
  /** A changed account (edited, or the language switched) replaces the stored user. */
  updateUser(user: User) {
    if (sessionStore.get().status === 'signed-in') sessionStore.set({ status: 'signed-in', user });
  },
  /**
   * Forgets the session. `byUser` marks a logout or a deleted account: the login page then
   * opens plainly, instead of offering to return to where the user was.
   */
  signOut({ byUser = false } = {}) {
    accessToken = null;
    sessionStore.set({ status: 'signed-out', user: null, byUser });
  },
};

export function useSession(): Session {
  return useStore(sessionStore);
}

/** The signed-in user; only for screens behind the sign-in guard. */
export function useUser(): User | null {
  return useSession().user;
}
