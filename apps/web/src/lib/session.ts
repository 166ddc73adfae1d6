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
/**
 * Set while the user ends the session themselves (a logout, the account deleted): the server then
 * ends the live streams at once, and a request they set off that is refused 401 is the logout's
 * doing, not an expired session to offer a way back from.
 */
let endingByUser = false;

export const session = {
  get: sessionStore.get,
  subscribe: sessionStore.subscribe,
  accessToken: () => accessToken,
  setAccessToken(token: string) {
    accessToken = token;
  },
  signIn(user: User, token: string) {
    accessToken = token;
    endingByUser = false;
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
  /**
   * Marks the user's own logout or deletion as under way, until the next sign-in (see
   * endingByUser); the function returned takes the mark back when it did not go through.
   */
  beginEndingByUser(): () => void {
    endingByUser = true;
    return () => {
      endingByUser = false;
    };
  },
  isEndingByUser: () => endingByUser,
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
