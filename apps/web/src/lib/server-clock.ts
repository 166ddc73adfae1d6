/**
 * The server's time as seen from the browser, and a clock that ticks with it.
 *
 * Machines stamp their reports with their own clock, which the protocol keeps within a second of
 * the server's; the browser's may be off by minutes. Whether a machine has been silent too long
 * (docs/protocol.md, "Online and offline") is measured from the server's time, estimated from the
 * `Date` header of its answers.
 */

/** The `Date` header counts whole seconds: within this, the browser's clock is taken as right. */
const SKEW_TOLERANCE_MS = 1500;
const TICK_MS = 1000;

let offsetMs = 0;

/** Notes the server's `Date` header of an answer received now; a header that is missing or unreadable is ignored. */
export function noteServerDate(dateHeader: string | null, receivedAt = Date.now()): void {
  if (!dateHeader) return;
  const serverTime = Date.parse(dateHeader);
  if (Number.isNaN(serverTime)) return;
  // The header drops the milliseconds: the server's time was on average half a second later.
  const estimate = serverTime + 500 - receivedAt;
  if (Math.abs(estimate - offsetMs) <= SKEW_TOLERANCE_MS) return;
  offsetMs = Math.abs(estimate) <= SKEW_TOLERANCE_MS ? 0 : estimate;
}

/** Now by the server's clock, ms since the epoch. */
export function serverNow(): number {
  return Date.now() + offsetMs;
}

const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | undefined;

/**
 * Calls the listener every second while it is subscribed (for `useSyncExternalStore`: what is
 * derived from the time, such as "online" or "2 min ago", is read again and shown when it changed).
 * One timer serves every listener; it stops when the last one leaves.
 */
export function subscribeToClock(listener: () => void): () => void {
  listeners.add(listener);
  ticker ??= setInterval(() => {
    for (const each of listeners) each();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}
