/** A seeded random source (mulberry32): the same seed gives the same benchmark data on every run. */
export function seededRandom(seed: number): { next: () => number; between: (low: number, high: number) => number } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, between: (low, high) => low + (high - low) * next() };
}
