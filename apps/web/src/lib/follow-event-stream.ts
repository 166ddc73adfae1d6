import { readEventStream } from './api-client';
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
  signal: AbortSignal;
};

const waitFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows a server-sent event stream with the session's token until `signal` aborts. A dropped
 * stream is opened again after 1 s, then 2, 4… up to 30 s; one refused with 401 (the session
 * ended) or 404 (nothing to follow: the machine is gone for this user) ends it for good.
 */
export async function followEventStream({ path, onEvent, onOpen, onDrop, signal }: EventStreamFollower): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  let dropped = false;
  while (!signal.aborted) {
    const end = await readEventStream(path, onEvent, signal, () => {
      retryMs = FIRST_RETRY_MS;
      onOpen?.(dropped);
    });
    if (signal.aborted) return;
    if (!end.opened && (end.failure.status === 401 || end.failure.status === 404)) return;
    dropped = true;
    onDrop?.();
    await waitFor(retryMs, signal);
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
  }
}
