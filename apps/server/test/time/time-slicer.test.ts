import { describe, expect, it } from 'vitest';
import { TimeSlicer } from '../../src/time/time-slicer';

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('a time slicer', () => {
  it('is due once its budget has run, and a pause lets the work waiting on the event loop run and starts the next slice', async () => {
    const slicer = new TimeSlicer(5);
    expect(slicer.due()).toBe(false);
    let waitingRan = false;
    setImmediate(() => (waitingRan = true));
    busyFor(6);
    expect(slicer.due()).toBe(true);
    expect(waitingRan).toBe(false);
    await slicer.pause();
    expect(waitingRan).toBe(true);
    expect(slicer.due()).toBe(false);
  });

  it('keeps a loop of short steps to slices of about its budget, with no await while none is due', async () => {
    const slicer = new TimeSlicer(5);
    const longestGaps: number[] = [];
    let lastTurn = performance.now();
    const watcher = setInterval(() => {
      longestGaps.push(performance.now() - lastTurn);
      lastTurn = performance.now();
    }, 0);
    let pauses = 0;
    const start = performance.now();
    while (performance.now() - start < 100) {
      busyFor(0.1);
      if (slicer.due()) {
        pauses += 1;
        await slicer.pause();
      }
    }
    clearInterval(watcher);
    // About 100 ms of work in 5 ms slices: some twenty pauses, not one per step (a thousand).
    expect(pauses).toBeGreaterThanOrEqual(10);
    expect(pauses).toBeLessThanOrEqual(25);
    expect(Math.max(...longestGaps)).toBeLessThan(50);
  });
});
