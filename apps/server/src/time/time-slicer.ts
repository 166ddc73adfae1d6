import { performance } from 'node:perf_hooks';

/**
 * Long work in slices: between its steps the work calls `pause()`, which hands the event loop
 * back (HTTP, MQTT, timers, other queries) once the current slice has run for `budgetMs`. A
 * slice lasts the budget plus the step that crosses it, so each step must be short. Cheaper
 * than a worker thread here: PGlite's queries run on this thread whatever the accounting does,
 * so they have to be kept short and interleaved anyway, and the grid rows would have to be
 * copied back from a worker on this thread too.
 */
export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly budgetMs: number) {}

  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < this.budgetMs) return;
    await new Promise(setImmediate);
    this.sliceStart = performance.now();
  }
}
