/** A wall clock, ms since the epoch: the real one, or a controller's that is set wrong. */
export type WallClock = () => number;

/** A day either way covers every wrong clock worth simulating, a time zone mistake included. */
export const MAX_CLOCK_OFFSET_MS = 24 * 60 * 60_000;

/** The real clock off by offsetMs (ahead when positive), as a controller without NTP drifts. */
export function offsetClock(offsetMs: number): WallClock {
  return () => Date.now() + offsetMs;
}

/** Wall-clock milliseconds that never repeat or go back: the server takes a report's ts as its identity. */
export class UniqueClock {
  private last = 0;

  constructor(private readonly wallClock: WallClock = Date.now) {}

  now(): number {
    this.last = Math.max(this.wallClock(), this.last + 1);
    return this.last;
  }
}
