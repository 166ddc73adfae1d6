import { describe, expect, it } from 'vitest';
import { createRandom, mixSeed } from '../src/random';

const draws = (seed: number, count = 20) => Array.from({ length: count }, createRandom(seed).next);

describe('seeded random', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    expect(draws(42)).toEqual(draws(42));
    expect(draws(42)).not.toEqual(draws(43));
    expect(draws(42).every((value) => value >= 0 && value < 1)).toBe(true);
  });

  it('keeps between, integer and pick within their bounds', () => {
    const random = createRandom(7);
    for (let draw = 0; draw < 1000; draw += 1) {
      expect(random.between(5, 6)).toBeGreaterThanOrEqual(5);
      expect(random.between(5, 6)).toBeLessThan(6);
      expect([2, 3, 4]).toContain(random.integer(2, 4));
      expect(['a', 'b']).toContain(random.pick(['a', 'b']));
    }
    expect(() => random.pick([])).toThrow(RangeError);
  });

  it('forks and mixes seeds reproducibly', () => {
    expect(draws(createRandom(9).fork().next() * 2 ** 32)).toEqual(draws(createRandom(9).fork().next() * 2 ** 32));
    expect(mixSeed(1, 2)).toBe(mixSeed(1, 2));
    expect(mixSeed(1, 2)).not.toBe(mixSeed(1, 3));
  });
});
