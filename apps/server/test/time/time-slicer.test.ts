import { describe, expect, it } from 'vitest';
import { TimeSlicer } from '../../src/time/time-slicer';

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('a time slicer', () => {
  it('is due once its budget has run, and a pause lets the work waiting on the event loop run and starts the next slice', async () => {
    // A budget far above what a loaded machine takes between two statements.
    const slicer = new TimeSlicer(50);
    expect(slicer.due()).toBe(false);
    let waitingRan = false;
    setImmediate(() => (waitingRan = true));
    busyFor(51);
    expect(slicer.due()).toBe(true);
    expect(waitingRan).toBe(false);
    await slicer.pause();
    expect(waitingRan).toBe(true);
    expect(slicer.due()).toBe(false);
  });

  it('pauses a loop of short steps once a slice, not once a step', async () => {
    const slicer = new TimeSlicer(5);
    let pauses = 0;
    for (let step = 0; step < 1_000; step += 1) {
      busyFor(0.1);
      if (slicer.due()) {
        pauses += 1;
        await slicer.pause();
      }
    }
    // 1,000 steps of at least 0.1 ms in slices of 5 ms: about twenty pauses on a quiet machine;
    // a loaded one stretches some steps, and so cuts more slices, but never one a step.
    expect(pauses).toBeGreaterThanOrEqual(5);
    expect(pauses).toBeLessThanOrEqual(250);
  });
});
