import { readEventStream } from './api-client';
import { connection } from './connection';
import type { ServerSentEvent } from './server-sent-events';

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 30_000;

export type EventStreamFollower = {
  /** The stream's path under the API, e.g. `/alerts/events`. */
  path: string;
  /** Each event as it arrives. */
  onEvent: (event: ServerSentEvent) => void;
  /** The stream is open; `reconnected` after a drop, when what was sent meanwhile was missed. */
  onOpen?: (reconnected: boolean) => void;
  /** The stream dropped and will be opened again. */
  onDrop?: () => void;
  /** The server refused the stream for good with 404: what it followed is gone for this user (a revoke). */
  onGone?: () => void;
  signal: AbortSignal;
};

/** Waits `ms`, or less: until `signal` aborts or the lost connection is back. */
const waitFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stopListening();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stopListening = connection.subscribe(() => {
      if (connection.isOnline()) done();
    });
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * A signal that aborts with `signal`, and also when the connection is lost during the attempt:
 * a stream that seems open through the loss may hang on a route that is gone, or go on feeding
 * the page under a line that says nothing comes. It is opened again when the connection is back.
 */
function attemptSignal(signal: AbortSignal): { signal: AbortSignal; end: () => void } {
  const attempt = new AbortController();
  const abort = () => attempt.abort();
  signal.addEventListener('abort', abort, { once: true });
  const stopListening = connection.subscribe(() => {
    if (!connection.isOnline()) abort();
  });
  return {
    signal: attempt.signal,
    end: () => {
      stopListening();
      signal.removeEventListener('abort', abort);
    },
  };
}

/**
 * Follows a server-sent event stream with the session's token until `signal` aborts. A dropped
 * stream is opened again after 1 s, then 2, 4… up to 30 s; one refused with 401 (the session
 * ended) or 404 (nothing to follow: the machine is gone for this user) ends it for good. A lost
 * connection (lib/connection.ts) closes it, and its return opens it again at once.
 */
export async function followEventStream({
  path,
  onEvent,
  onOpen,
  onDrop,
  onGone,
  signal,
}: EventStreamFollower): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  let dropped = false;
  while (!signal.aborted) {
    const attempt = attemptSignal(signal);
    const end = await readEventStream(path, onEvent, attempt.signal, () => {
      retryMs = FIRST_RETRY_MS;
      onOpen?.(dropped);
    });
    const closedByLoss = attempt.signal.aborted;
    attempt.end();
    if (signal.aborted) return;
    if (!end.opened && end.failure.status === 404) onGone?.();
    if (!end.opened && (end.failure.status === 401 || end.failure.status === 404)) return;
    dropped = true;
    onDrop?.();
    // Tried again at once: without a connection that fails at once, and the wait below ends when it is back.
    if (closedByLoss) continue;
    await waitFor(retryMs, signal);
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
  }
}
