/**
 * A background job run every `everyMs` and on demand, one run at a time: a run asked for while
 * another goes on waits for it, so two never overlap, and stopping waits for the one under way.
 * A failed run is reported by `onError` and does not stop the next; whoever asked for that run
 * also sees it fail.
 */
export class RepeatingJob<Arg = undefined> {
  private timer: NodeJS.Timeout | undefined;
  private firstRun: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly job: (arg?: Arg) => Promise<void>,
    private readonly options: { everyMs: number; onError: (error: unknown) => void },
  ) {}

  /**
   * Runs it every `everyMs` from now on, and once `firstAfterMs` from now when given (a job whose
   * period is long, yet whose first run should come soon after a start), without keeping the
   * process alive for it.
   */
  start({ firstAfterMs }: { firstAfterMs?: number } = {}): void {
    this.timer = setInterval(() => void this.runNow(), this.options.everyMs).unref();
    if (firstAfterMs !== undefined) {
      this.firstRun = setTimeout(() => void this.runNow(), firstAfterMs).unref();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.firstRun);
    await this.running;
  }

  /** Runs it once more, after the run under way; resolves when this run is done. */
  runNow(arg?: Arg): Promise<void> {
    const run = this.running.then(() => this.job(arg));
    this.running = run.catch(this.options.onError);
    return run;
  }
}
