/**
 * A background job run every `everyMs` and on demand, one run at a time: a run asked for while
 * another goes on waits for it, so two never overlap, and stopping waits for the one under way.
 * The ticks that come while a run goes on wait as one run: a run longer than the interval is
 * followed by one more, not by a queue that grows by a run a tick.
 * A failed run is reported by `onError` and does not stop the next; whoever asked for that run
 * also sees it fail.
 */
export class RepeatingJob<Arg = undefined> {
  private timer: NodeJS.Timeout | undefined;
  private firstRun: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  /** Whether a tick's run (or one asked for `soon`) waits for the one under way. */
  private soonWaiting = false;
  private stopped = false;

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
    this.stopped = false;
    this.timer = setInterval(() => this.soon(), this.options.everyMs).unref();
    if (firstAfterMs !== undefined) {
      this.firstRun = setTimeout(() => this.soon(), firstAfterMs).unref();
    }
  }

  /** Stops its ticks and what asks for a run `soon`, and waits for the run under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.firstRun);
    await this.running;
  }

  /** Runs it once more, after the run under way; resolves when this run is done. */
  runNow(arg?: Arg): Promise<void> {
    return this.after(() => this.job(arg));
  }

  /**
   * Runs it once after the run under way, as a tick does: asked for again (by a tick or by this)
   * before that run starts, it is still one run. For news that something is due, whoever it is from;
   * a stopped job does not hear it.
   */
  soon(): void {
    if (this.stopped || this.soonWaiting) return;
    this.soonWaiting = true;
    // Its failure is reported by onError; nobody waits for it.
    this.after(() => {
      this.soonWaiting = false;
      return this.job();
    }).catch(() => undefined);
  }

  private after(run: () => Promise<void>): Promise<void> {
    const queued = this.running.then(run);
    this.running = queued.catch(this.options.onError);
    return queued;
  }
}
