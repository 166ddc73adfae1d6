import { AppError } from '../errors';

/**
 * Work that is costly for the instance (a password hash, a prescription read), run at most
 * `maxConcurrent` at a time, with a bounded queue behind: a flood of such requests slows down
 * those requests, not every other one, and holds no more memory than `maxConcurrent` of them
 * need. Beyond the queue a request is refused at once as `rate_limited`, to be tried again.
 */
export class BoundedWork {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxConcurrent: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxConcurrent) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new AppError('rate_limited', { headers: { 'retry-after': '5' } });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
