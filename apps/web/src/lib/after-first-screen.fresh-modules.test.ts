import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Reads in flight as a test sets them, telling the listeners as TanStack Query's cache would. */
function fakeReads() {
  let inFlight = 0;
  const listeners = new Set<() => void>();
  return {
    reads: {
      isFetching: () => inFlight,
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    set(count: number) {
      inFlight = count;
      for (const listener of listeners) listener();
    },
    listeners,
  };
}

/** A fresh copy of the module: which screen was first is remembered once a visit. */
const freshModule = async () => {
  vi.resetModules();
  const { markScreenShown } = await import('./first-screen');
  return { markScreenShown, ...(await import('./after-first-screen')) };
};

describe('what waits for the first screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits until a screen has rendered and the reads it asked for have settled', async () => {
    const { markScreenShown, waitForFirstScreen } = await freshModule();
    const { reads, set, listeners } = fakeReads();
    let done = false;
    void waitForFirstScreen(reads).then(() => (done = true));

    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toBe(false);

    markScreenShown();
    set(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toBe(false);

    set(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBe(false);

    set(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(done).toBe(true);
    expect(listeners.size).toBe(0);
  });

  it('goes on at once after a screen that reads nothing, and gives everyone the same wait', async () => {
    const { markScreenShown, waitForFirstScreen } = await freshModule();
    const { reads } = fakeReads();
    markScreenShown();
    const first = waitForFirstScreen(reads);
    expect(waitForFirstScreen(reads)).toBe(first);
    await vi.advanceTimersByTimeAsync(500);
    await expect(first).resolves.toBeUndefined();
  });

  it('waits no longer than its limit for reads that do not settle', async () => {
    const { FIRST_SCREEN_MAX_WAIT_MS, markScreenShown, waitForFirstScreen } = await freshModule();
    const { reads, set, listeners } = fakeReads();
    set(1);
    markScreenShown();
    let done = false;
    void waitForFirstScreen(reads).then(() => (done = true));

    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_MAX_WAIT_MS - 100);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    expect(done).toBe(true);
    expect(listeners.size).toBe(0);
  });

  it("goes on only once a frame has painted the settled reads' data, out of the task that renders it", async () => {
    const { markScreenShown, waitForFirstScreen } = await freshModule();
    const { reads, set } = fakeReads();
    markScreenShown();
    set(1);
    let done = false;
    void waitForFirstScreen(reads).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(100);

    set(0);
    await vi.advanceTimersByTimeAsync(5);
    expect(done).toBe(false);
    // Two frames of 16 ms each: the one queued with the answer's render, then the one that shows it.
    await vi.advanceTimersByTimeAsync(50);
    expect(done).toBe(true);
  });

  it('does not wait for a frame a hidden tab never paints beyond its limit', async () => {
    vi.stubGlobal('requestAnimationFrame', () => 0);
    const { markScreenShown, waitForFirstScreen } = await freshModule();
    const { reads } = fakeReads();
    markScreenShown();
    let done = false;
    void waitForFirstScreen(reads).then(() => (done = true));

    await vi.advanceTimersByTimeAsync(900);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(400);
    expect(done).toBe(true);
  });
});
