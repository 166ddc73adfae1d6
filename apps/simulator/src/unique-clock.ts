/** Wall-clock milliseconds that never repeat or go back: the server takes a report's ts as its identity. */
export class UniqueClock {
  private last = 0;

  now(): number {
    this.last = Math.max(Date.now(), this.last + 1);
    return this.last;
  }
}
