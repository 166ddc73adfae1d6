import { type Alert, AlertSchema } from '@pivot/contracts';
import { readEventStream } from '@/lib/api-client';

export const ALERT_EVENTS_PATH = '/alerts/events';

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 30_000;

export type AlertFollower = {
  /** Each alert as it arrives. */
  onAlert: (alert: Alert) => void;
  /** The stream is open again after a drop: alerts sent meanwhile were missed, what shows them should look again. */
  onReconnect: () => void;
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

/** The alert an event carries, or null for anything else (another event, text outside the contract). */
export function alertOfEvent(name: string, data: string): Alert | null {
  if (name !== 'alert') return null;
  try {
    const parsed = AlertSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Follows GET /alerts/events (server-sent events, with the session's token: `EventSource`
 * cannot send one) until `signal` aborts. A dropped stream is opened again after 1 s, then 2, 4…
 * up to 30 s; a session that ended (401) or a server without alerts (404) ends it for good.
 */
export async function followAlerts({ onAlert, onReconnect, signal }: AlertFollower): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  let dropped = false;
  while (!signal.aborted) {
    const onOpen = () => {
      retryMs = FIRST_RETRY_MS;
      if (dropped) onReconnect();
    };
    const end = await readEventStream(
      ALERT_EVENTS_PATH,
      (event) => {
        const alert = alertOfEvent(event.name, event.data);
        if (alert) onAlert(alert);
      },
      signal,
      onOpen,
    );
    if (signal.aborted) return;
    if (!end.opened && (end.failure.status === 401 || end.failure.status === 404)) return;
    dropped = true;
    await waitFor(retryMs, signal);
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
  }
}
