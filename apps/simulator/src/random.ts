/**
 * A small seeded pseudo-random generator (mulberry32). The same seed gives the same sequence,
 * so a fleet, its weather and its misbehaviour replay exactly from a seed.
 */
export type Random = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** An integer in [min, max], both included. */
  integer(min: number, max: number): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A new generator seeded from this one, for a part that should not shift the others' draws. */
  fork(): Random;
};

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const random: Random = {
    next,
    between: (min, max) => min + (max - min) * next(),
    integer: (min, max) => min + Math.floor((max - min + 1) * next()),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('Cannot pick from an empty list');
      return items[Math.floor(items.length * next())]!;
    },
    fork: () => createRandom(Math.floor(next() * 2 ** 32)),
  };
  return random;
}

/** Combines a seed with a number (a day, an index) into a new seed. */
export function mixSeed(seed: number, value: number): number {
  return (Math.imul(seed ^ Math.imul(value, 0x9e3779b1), 0x85ebca6b) ^ value) >>> 0;
}
