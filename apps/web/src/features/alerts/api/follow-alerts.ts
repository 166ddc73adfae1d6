import { type Alert, AlertSchema, alertsEndpoints } from '@pivot/contracts';
import { pathOf } from '@/lib/api-client';
import { followEventStream } from '@/lib/follow-event-stream';

export type AlertFollower = {
  /** Each alert as it arrives. */
  onAlert: (alert: Alert) => void;
  /** The stream is open again after a drop: alerts sent meanwhile were missed, what shows them should look again. */
  onReconnect: () => void;
  signal: AbortSignal;
};

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
 * cannot send one) until `signal` aborts, opening it again after a drop (followEventStream).
 */
export function followAlerts({ onAlert, onReconnect, signal }: AlertFollower): Promise<void> {
  return followEventStream({
    path: pathOf(alertsEndpoints.events),
    onEvent: (event) => {
      const alert = alertOfEvent(event.name, event.data);
      if (alert) onAlert(alert);
    },
    onOpen: (reconnected) => {
      if (reconnected) onReconnect();
    },
    signal,
  });
}
