import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { RepeatingJob } from '../time/repeating-job';

/** How finely Node samples the delay, ms: a block shorter than this may go unseen. */
const RESOLUTION_MS = 10;
/** One slice of the minute: the histogram is read and reset this often. */
const SLICE_MS = 10_000;
const SLICES_PER_MINUTE = 6;

/**
 * Past this longest delay in the last minute, `/api/health` says `degraded` (`event_loop_delay`):
 * one block of a second delays every request, report and command answer under way by as much.
 * The 99th percentile is reported beside it, not judged: a slice's first few samples make it the
 * longest delay itself, and a server just started has few.
 */
export const EVENT_LOOP_DELAY_LIMIT_MS = 1000;

export type EventLoopDelayFigures = { p99: number; max: number };

const milliseconds = (nanoseconds: number) => Math.round(nanoseconds / 1e5) / 10;

/**
 * How late the event loop ran its timers over the last minute (Node's monitorEventLoopDelay):
 * any work that holds the loop — a request's parsing, a geometry's check — shows here as delay.
 * Node's histogram only grows, so it is read and reset every ten seconds, and the minute is the
 * last five slices read and the one under way (50 to 60 s): the worst 99th percentile of a slice
 * and the longest delay of all.
 */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private slices: EventLoopDelayFigures[] = [];
  private readonly rotation = new RepeatingJob(async () => this.closeSlice(), {
    everyMs: SLICE_MS,
    onError: () => undefined,
  });

  start(): void {
    this.histogram.enable();
    this.rotation.start();
  }

  async stop(): Promise<void> {
    await this.rotation.stop();
    this.histogram.disable();
  }

  lastMinute(): EventLoopDelayFigures {
    return [this.current(), ...this.slices].reduce(
      (worst, slice) => ({ p99: Math.max(worst.p99, slice.p99), max: Math.max(worst.max, slice.max) }),
      { p99: 0, max: 0 },
    );
  }

  private current(): EventLoopDelayFigures {
    if (this.histogram.count === 0) return { p99: 0, max: 0 };
    return { p99: milliseconds(this.histogram.percentile(99)), max: milliseconds(this.histogram.max) };
  }

  private closeSlice(): void {
    this.slices = [this.current(), ...this.slices].slice(0, SLICES_PER_MINUTE - 1);
    this.histogram.reset();
  }
}
