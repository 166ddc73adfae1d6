/**
 * The pushes one instance has in flight at once, whichever round they belong to. A push waiting
 * for a slot goes before those to browsers that have been failing, so push services that hang
 * hold up, at worst, other failing ones.
 */
export class PushSlots {
  private active = 0;
  private readonly waiting = { first: [] as (() => void)[], last: [] as (() => void)[] };

  constructor(private readonly limit: number) {}

  /** Runs `work` once a slot is free; `failing` pushes wait behind all others. */
  async run<T>(failing: boolean, work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active += 1;
    else await new Promise<void>((resolve) => (failing ? this.waiting.last : this.waiting.first).push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = this.waiting.first.shift() ?? this.waiting.last.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
