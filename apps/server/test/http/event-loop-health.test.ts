import { describe, expect, it } from 'vitest';
import { EVENT_LOOP_DELAY_LIMIT_MS } from '../../src/http/event-loop-delay';
import { useTestApp } from '../support/test-app';

type Health = { status: string; problems: string[]; eventLoopDelayMs: { p99: number; max: number } };

/** Holds the event loop as a request doing heavy work on it would. */
function holdEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy, as geometry checked on the loop is
  }
}

describe("health reports the event loop's delay", () => {
  const t = useTestApp();

  it('answers the last minute’s 99th percentile and longest delay, and says degraded after a block of a second and a half', async () => {
    const before = (await t.client().get('/api/health')).body as Health;
    expect(before.eventLoopDelayMs).toEqual({ p99: expect.any(Number), max: expect.any(Number) });
    expect(before.eventLoopDelayMs.p99).toBeLessThanOrEqual(before.eventLoopDelayMs.max);

    const blockMs = EVENT_LOOP_DELAY_LIMIT_MS * 1.5;
    holdEventLoop(blockMs);
    // The delay is seen once the loop turns again and the monitor's timer runs late.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = (await t.client().get('/api/health')).body as Health;
    expect(after.eventLoopDelayMs.max).toBeGreaterThanOrEqual(blockMs * 0.9);
    expect(after.status).toBe('degraded');
    expect(after.problems).toContainEqual(expect.stringMatching(/^event_loop_delay: the event loop ran up to \d/));
  });
});
