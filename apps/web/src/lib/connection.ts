import { createStore, useStore } from '@/config/create-store';
import { env } from '@/config/env';

/**
 * Whether the app reaches its server, for a field with weak signal (docs/web-app.md, "No
 * connection"). `knownAt` is when the last answer came before the connection was lost: what the
 * pages show is what was known then.
 */
export type Connection = { online: true; knownAt: null } | { online: false; knownAt: number };

/** While the connection is lost, the server is asked this often whether it answers again. */
export const PROBE_EVERY_MS = 3000;

const connectionStore = createStore<Connection>({ online: true, knownAt: null });
/** When the latest answer (or a part of a live stream) came; a plain value, read only when the connection is lost. */
let lastAnswerAt: number | null = null;
let probeTimer: ReturnType<typeof setTimeout> | undefined;

export const connection = {
  get: connectionStore.get,
  subscribe: connectionStore.subscribe,
  isOnline: () => connectionStore.get().online,
  /**
   * An answer came (whatever its status: a 404 or a 500 is an answer, the connection works),
   * or a part of a live stream did.
   */
  noteAnswer(): void {
    lastAnswerAt = Date.now();
    // What still trickles in after the browser said it has no network is not trusted: its
    // `online` event comes first.
    if (connectionStore.get().online || !navigator.onLine) return;
    clearTimeout(probeTimer);
    probeTimer = undefined;
    connectionStore.set({ online: true, knownAt: null });
  },
  /**
   * No answer came: the request failed without reaching the server, or a live stream broke off.
   * A phone can say it is online with no route to the server, so this counts as much as the
   * browser's own `offline` event. Not for a request its page aborted.
   */
  noteNoAnswer(): void {
    if (!connectionStore.get().online) return;
    connectionStore.set({ online: false, knownAt: lastAnswerAt ?? Date.now() });
    scheduleProbe(PROBE_EVERY_MS);
  },
};

/** Asks the server whether it answers, without a session: whatever it answers, the connection is back. */
async function probe(): Promise<void> {
  probeTimer = undefined;
  if (connectionStore.get().online) return;
  // The browser knows it has no network at all: no need to try, its `online` event will come.
  if (navigator.onLine) {
    try {
      await fetch(`${env.apiBase}/health`, { cache: 'no-store', credentials: 'omit' });
      connection.noteAnswer();
      return;
    } catch {
      // Still no answer: try again a little later.
    }
  }
  if (!connectionStore.get().online) scheduleProbe(PROBE_EVERY_MS);
}

function scheduleProbe(delayMs: number): void {
  clearTimeout(probeTimer);
  probeTimer = setTimeout(() => void probe(), delayMs);
}

if (typeof window !== 'undefined') {
  if (!navigator.onLine) connection.noteNoAnswer();
  window.addEventListener('offline', () => connection.noteNoAnswer());
  // The browser's word that the network is back is checked before the pages trust it.
  window.addEventListener('online', () => {
    if (!connectionStore.get().online) scheduleProbe(0);
  });
}

/** The connection as it is now, kept up to date. */
export function useConnection(): Connection {
  return useStore(connectionStore);
}

/** A read that failed because the connection is lost (see `keepWhileOffline`). */
export class NoConnectionError extends Error {
  constructor() {
    super('No connection');
    this.name = 'NoConnectionError';
  }
}

/**
 * For a query's function: a read that failed for want of a connection throws instead of
 * answering false, so that the query keeps the data it had and its page goes on showing it.
 */
export async function keepWhileOffline<Data>(read: Promise<Data | false>): Promise<Data | false> {
  const result = await read;
  if (result === false && !connection.isOnline()) throw new NoConnectionError();
  return result;
}
