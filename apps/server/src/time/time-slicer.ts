import { performance } from 'node:perf_hooks';

/**
 * Long work in slices: between its steps the work asks `due()` and, when it is, awaits `pause()`,
 * which hands the event loop back (HTTP, MQTT, timers, other queries) and starts the next slice.
 * A slice lasts the budget plus the step that crosses it, so each step must be short. `due()` is
 * synchronous because an `await` per step costs a microtask even when no pause is due: a third of
 * a GeoJSON export's time when every feature awaited. Cheaper than a worker thread here: PGlite's
 * queries run on this thread whatever the accounting does, so they have to be kept short and
 * interleaved anyway, and the grid rows would have to be copied back from a worker on this thread too.
 */
export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly budgetMs: number) {}

  /** Whether the current slice has run its budget. */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.budgetMs;
  }

  /** Hands the event loop back and starts a new slice. */
  async pause(): Promise<void> {
    await new Promise(setImmediate);
    this.sliceStart = performance.now();
  }
}
